// Package replay makes one run of the command against the recording:
// a semi-replay run (Run) or a materialized run (Execute, see Materialized
// runs below). In a semi-replay run the command runs under the tracer
// core that record uses, and each of its calls is matched, as it enters,
// to a call of the recording and treated as a depgraph.Plan says:
// replayed (skipped, with the recorded return value and out-memory
// written into the process), executed, or executed and then overwritten
// with the recorded results. A verdict (package verdict) comes out.
//
// The dependency graph is not built here: the caller builds it once
// (depgraph.Build) and passes it to Prepare with the trace, so replay and
// the search share one graph.
//
// # Matching
//
// Live processes and threads are matched to recorded ones by their place
// in the tree and by what they do first (binder.go): a live process or
// thread is bound when it makes its first call, to the not yet matched
// recorded sibling whose first call has the same key (align.Key: the
// syscall and the path or resource it acts on), preferring the one
// created at the same position. Each live thread's calls are then fed to
// an align.Stream over its recorded thread's keys: the next recorded key
// matches; a key a few calls ahead matches too (the live run skipped some
// recorded calls); anything else is an extra live call, which runs for
// real. After more than Options.Window extra calls in a row the thread
// has diverged and every later call of it runs for real. Nothing is ever
// replayed against a call with another key. Keys compare paths, so the fd
// numbers in the arguments do not matter; the path of an fd is what the
// program believes it refers to (the recorded path of a replayed open).
//
// The one exception is a generated name (align's Keyer.Like): a live call
// that creates a temporary file or directory whose name differs from the
// recorded one only in a part a generator made (an open with
// O_CREAT|O_EXCL, a mkdir: systable's Generated rows) matches that
// recorded call, in the stream and in the binder alike, and the engine's
// keyer, one per run and shared by all its processes, keys the live name
// and the paths under it as the recorded name from then on
// (Keyer.MapName): the shell's "> $f", cat's open of it in another
// process and the unlink match their recorded calls. A call the binder
// saw before its thread was matched is mapped once it is.
//
// # Applying the plan
//
// The decision goes to the ptrace engine as a ptrace.Decision:
//   - Replay becomes Skip: the call does not run. A call that made an fd
//     becomes an memfd_create instead, so that the fd number the program
//     holds exists in the kernel (a stand-in) and the numbers the kernel
//     gives later calls stay those of the recording.
//   - Replay of an exec whose image the trace stores (systable's
//     ServesImage; the graph knows which are stored) is Skip too: the
//     ptrace engine runs the recorded image from Options.Serve's Store
//     instead of skipping the call. One whose image is not stored
//     executes, noted "execute (image not stored: why)".
//   - Replay of a call that changes which numbers the fd table holds
//     (close, dup2 ...) becomes Overwrite: it runs on the stand-ins, the
//     program sees the recorded result.
//   - Replay of a call that changed a file-system object in the
//     recording (mkdir, an open with O_CREAT or O_TRUNC, a write,
//     pwrite, writev, sendfile or copy_file_range into a file, rename,
//     unlink, rmdir, link, symlink, chmod, chown, utimensat, truncate,
//     fallocate: depgraph's RunsWhenReplayed, which the plan's closure
//     reads too) becomes Overwrite when the live call has the effect as
//     well: it runs first, keeping the program's own effect (the
//     artifact a build writes), and the program sees the recorded
//     result. The plan's closure made what it runs on real: the open of
//     the fd it writes through, its offset, its dirfd's open, its working
//     directory, its parent directories. Where a creation cannot happen
//     here the tracer makes it in the run's scratch area and redirects
//     the later calls on its path there (package ptrace); the engine, a
//     ptrace.RedirectObserver, lists those redirects in Result.Redirects.
//     Where another effect fails here (an unlink of a file this
//     environment lacks), the program still sees the recorded result and
//     the effect is not made.
//   - ExecuteThenOverwrite becomes Overwrite; a created fd is moved to the
//     recorded number, or a stand-in takes it when the live call failed.
//   - Execute, calls that never returned, extra and diverged calls run.
//   - Replay of bind or listen (depgraph's SetsUpServer) becomes
//     Overwrite: the socket really binds and listens, so the program's
//     traced clients have a server to reach; where the address is taken
//     here, the engine binds a free one and redirects the traced connects
//     to it (Result.AddrRedirects). The plan's closure made the socket
//     real (the socket() executes, its fd moved to the recorded number),
//     so bind, listen, poll and accept act on a socket, not on a memfd
//     stand-in that is always ready and fails accept with ENOTSOCK.
//
// # Echo fields
//
// On a socket of an echo protocol (depgraph's Graph.Echo: netlink, DNS),
// the ids a program made up differ from the recording's: nlmsg_seq from
// time(), the netlink port id (a live pid), a random DNS query id
// (echo.go). The ptrace engine captures what a call on a socket sends
// before the engine decides, and a live request matches its recorded
// call only when it equals it without the echoed fields; the engine then
// remembers which live value stands for which recorded one (a request's
// field; the port id an executed getsockname reported), and a replayed
// reply is a copy of the recorded one with the live values written into
// every message's fields, so the program accepts it. A call that carries
// several messages (sendmmsg, recvmmsg: one per struct mmsghdr entry)
// matches when it carries as many and each equals the recorded one at
// its place without the echoed fields; each replayed message gets the
// live values. The exchange stays
// whole: a socket whose socket call was replayed (a stand-in) has its
// requests replayed whatever the plan says (they cannot run on a memfd);
// a live socket's getsockname runs, so the program knows the port id the
// kernel's replies carry;
// a reply is replayed when its request was and read live when the
// request went to the kernel; after a request the recording did not make
// (a query for another name), every later call on the socket runs
// ("execute (other request)"), and on a stand-in that fails as it would.
//
// Addresses agree because record and replay both run with address
// randomisation off; pids are live throughout (getpid and clone run, the
// program never sees a recorded pid where the kernel has another).
//
// # Start items
//
// Options.Start are the start items to replay (start.go): the command
// starts with the recorded environment variables, umask, limits,
// credentials and capabilities. The working directory is one too
// (startcwd.go): replayed, the run's sandbox (sandbox.Spec.Cwd) binds the
// working directory at the recorded path and starts the command there,
// $PWD naming it; the engine then keys live paths as they are, since they
// are the recording's. Without a sandbox, or in a container, WithCwd lists
// it as unapplied instead. A resource limit whose good value a run cannot
// set (a hard limit above the one here without CAP_SYS_RESOURCE:
// launch.LimitReach) is listed as unapplied by StartItemsIn
// (startlimits.go); a run that replays it sets as much as it can (the
// soft limit up to the hard one), and when that changes nothing the item
// is no candidate at all.
//
// # Tainted runs
//
// A run's outcome can be an artifact of replay (taint.go): a call whose
// live result the program saw failed on a stand-in with an error a real
// object would not give, or got nothing from an empty stand-in where the
// recording read data or had no such read (ptrace.StandInObserver tells
// the engine), or a replayed call gave the program data the trace left
// out (--exclude-content: the recorded length, no bytes); or the run
// passed while a recorded exec never happened,
// recorded processes never started, or the processes that ended by
// themselves (no signal: a daemon the --alive check killed does not
// count) reached less than half of their recorded calls, with at least
// 64 never reached (unreached.go). Result.Taints lists the reasons;
// locate takes such a run as a skip.
//
// # Verdict
//
// The run is judged by verdict.Spec: exit status, a check command, a
// daemon still alive after a duration, a timeout. A check made after the
// command exits runs in the run's sandbox (launch.Config.View keeps its
// mount namespace, launch.InView enters it), so it reads what the
// command wrote there, such as the artifact of a build. Without Alive, the run
// ends when the command's own process exits and any process it left
// running is killed; with it, every traced process is killed after the
// check. No traced process outlives Run.
//
// # Materialized runs
//
// A materialized run (materialized.go, execute.go) puts the good
// environment's objects in place and lets the command run as it is: no
// matching, no stand-ins, no taint, no tracer. Its plan is data, a Spec:
// the environment (a trace.Join, or nil for this machine), the command,
// the start items to apply, the objects (envobj.Op, in the sandbox spec:
// the sandbox applies them, package sandbox), the verdict spec and the
// CPU placement; it encodes as JSON, with the objects' contents named by
// SHA-256 and handed over apart (sandbox.Contents; TraceContents serves a
// trace's file objects by hash, and a sandbox.Bundle made once serves
// many runs). Execute runs one: the start items go through the same
// applyStart and specJoin as a semi-replay run's, bounded by the
// environment's identity (launch.Bound: an item that would grant more is
// refused by launch.Start, and an identity item without an exec spec to
// apply it to is refused here); the contents become a sealed memfd the
// helper reads while it puts the objects in place in the run's throwaway
// view and closes before the exec; launch.RunUntraced starts the command
// without ptrace or envbisect's seccomp filter (a container's own filters
// apply) and waits for it and what it leaves, as the eBPF recorder does;
// verdict judges the exit status or the check, the check after the exit
// running in the run's view (its mount namespace comes back from the
// helper over a socket).
//
// One kind of object no namespace or start item puts in place: the
// kernel's answer to uname(2) (its release and version, Spec.Uname).
// A run that puts it in place starts the command under the ptrace engine
// instead (kernelnames.go, ptrace.Answering), with a seccomp filter that
// stops only the calls systable marks KernelNames (uname) and lets every
// other call run untraced; at each stop the good fields are written into
// the answer, the host name (the run's UTS namespace) left as it is. The
// sandbox, the start items and the verdict are the same; Outcome.Stops
// names the calls that stopped the command.
//
// It lives here, beside Run, because it shares what a run of the
// command is apart from the tracer: the start items and their bounds
// (start*.go), the judging in the run's view (judge), the same launcher
// and sandbox; a package of its own would have to export those or keep a
// second copy. What it does not take is the Recording: a Spec needs no
// trace at all, only contents by hash, so an executor elsewhere can run
// one.
//
// # CPU placement
//
// A command pinned by envbisect (--cpu auto, the default, or N) learns
// of one CPU; unpinned, of every CPU it inherits. Where envbisect pinned
// it in the recording or in the run (trace.Placement.OwnDoing, from the
// recording's StartCPUs event and the run's CPU), the calls whose answer
// is its CPUs (systable's Placement column: sched_getaffinity) are asked
// to be replayed in every run, whatever else is (Recording.WithPlacement
// on the question the plan's closure takes): the command sees the
// recording's CPUs, and no run fails, and no search names a call, for a
// CPU set of envbisect's making. Unpinned on both sides they execute:
// the answer is the environment's (placement.go).
package replay
