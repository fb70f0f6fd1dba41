// Package align matches two runs of the same command: their processes
// and threads, each thread's calls, and the results of each pair of
// matched calls. diff prints what it finds; locate uses the same pieces
// to match live calls to recorded ones. It reads trace values only and
// never touches a kernel.
//
// # Why matching is needed
//
// Real programs are not repeatable, even in one environment with ASLR
// off: concurrent workers are created in another order, a polling loop
// runs a different number of times, kernel pids, fd numbers, inode
// numbers and times differ. Logical process and thread numbers (trace
// package) are assigned in creation order and so inherit the first
// problem; the call sequence of a thread inherits the second.
//
// # Processes and threads (Match)
//
// Processes without a traced parent are paired in order. Below a matched
// pair, the children of the two processes are candidates (Candidate) for
// each other, and so are the threads of the two processes other than the
// main threads, which are paired with each other. A candidate pair scores
// (Score) for being created by matched threads, for the same creation
// order among its siblings, for executing the same image with the same
// argv, for the name a thread gives itself (prctl PR_SET_NAME or a write
// to /proc/<pid>/task/<tid>/comm), and for what its (main) thread does
// first: the similarity of the keys of its first FingerprintLen
// significant calls (memory management and signal set-up left out). The
// fingerprint weighs more than creation order, so two workers created in
// swapped order but doing distinct things are matched by what they do.
// Pairs are assigned greedily, best score first (Assign); a pair scoring
// below MinScore is never made, and what is left is unmatched.
//
// # Calls (Align, Stream)
//
// A call is identified across runs by its Key: the syscall and the
// resource it acts on. The resource is the call's path as the recorder
// resolved it (trace.Call.Path, Path2), which for fd calls is what the
// fd refers to, so fd numbers never enter a key; the numbers in
// "pipe:[123]" and in /proc/<pid> paths are dropped, and when the two
// runs started in different directories, paths under B's are keyed as
// under A's. The values of enum and signal arguments (fcntl's command,
// ioctl's request, the signal of rt_sigaction) are part of the key too.
//
// Two threads' key sequences are aligned by walking them in step and,
// at a mismatch, resynchronising within a bounded window: the nearest
// point at most Window (default DefaultWindow, 64) calls ahead on each
// side where three keys match in a row; the calls passed over are
// one-sided (an extra poll or sleep iteration on one side). Bounded
// resynchronisation rather than a whole-sequence LCS (Myers) diff was
// chosen because locate must align live calls online, as they happen,
// and diff should show the alignment locate would make. Where no point
// lies within the window, locate gives up on the thread (it diverges and
// runs for real); diff, holding both whole sequences, searches on
// without the bound through an index of B's keys, so one long divergence
// does not leave the rest of the thread unaligned.
//
// Diff aligns by result keys first (ResultKey: the key plus errno, or the
// return value where it is neither an address, an fd, a pid nor a time),
// so that an extra iteration of a polling loop is told apart from the
// last one (the poll returning 0 from the one returning 1), then pairs
// the one-sided calls of each gap whose plain keys agree (PairGaps): an
// open that failed in one run and succeeded in the other is one call with
// two results, not two unrelated calls. Calls of a gap left over whose
// keys agree although their order does not (a close of a pipe racing a
// wait4 for the child) are paired too, out of order.
//
// # Generated names (generated.go)
//
// A call that creates a name a generator made (mkstemp's XXXXXX, a
// tempfile or mktemp name, sem_open's sem.XXXXXX, a pid: systable's
// Generated rows and NameGen.Matches) has another path, so another key,
// in every run. Keyer.Like gives the live call a test that accepts a
// recorded key of the same syscall whose path differs from its own only
// in such a part; Stream.FeedLike tries it when no recorded key within
// the window equals the live one (an exact match always wins), nearest
// first, and says so (Fed.Generated). The caller then maps the live name
// to the recorded one (Keyer.MapName): the live run's keyer keys that
// name, and every path under it, as the recorded one for the rest of the
// run, so the later calls on the temporary file match by key.
//
// Stream is the online form: it takes one live key at a time and says
// whether it is the next recorded call, a recorded call a little further
// on (the live run skipped some), an extra live call, or that the thread
// has diverged.
//
// # Results (Comparer)
//
// Aligned calls are compared after normalisation: return values that are
// addresses (mmap, brk) or fd numbers are compared only for success and
// errno; pids and tids are translated through the process match (ids of
// processes outside both traces, such as a parent shell, count as equal);
// output buffers are compared field by field where the struct is known
// (struct stat by st_mode, st_size, st_uid, st_gid, st_nlink, st_rdev;
// statx likewise; directory entries as sets of names, in any order;
// socket addresses
// without the port; sigaction by handler kind, flags and mask), byte by
// byte otherwise. Inode and device numbers, times, time-like results
// (clock_gettime, gettimeofday, time, times, rusage, sysinfo), random
// data (getrandom, /dev/urandom), per-process /proc files, fd numbers
// inside structs and address-like auxv entries are left out unless
// Options.AllFields. Data the program sent (write buffers, socket
// addresses, iovecs, execve's argv) is compared too and reported apart
// from results; execve's environment is compared as start events.
// Two buffers stored out of line under the same address (Mem.Blob), of
// the same length and flags, hold the same bytes and compare equal
// without reading them; for other pairs Options.Fill reads in the bytes
// of a trace read without them (diff: tracefile.ReadOptions.KeepData).
//
// # Diff in two steps (Prepare, ComparePair)
//
// Matching and aligning read no buffer: keys, fingerprints, names and
// exits come from a call's numbers and paths. Diff is Prepare (match,
// align, count, exits, start events) and then ComparePair for every
// aligned pair, so a caller can hold the runs' calls without their
// buffers and compare each pair once it has read the two calls whole
// (diff reads the two traces again side by side). The keys of one Diff
// share their strings (an interner, up to 65,536 distinct ones), so a
// long thread's keys cost their slice, not a string a call.
//
// # Echo fields
//
// A request whose reply echoes an id the program made up (netlink's
// nlmsg_seq and nlmsg_pid, a DNS query id: systable's EchoProtocol rows)
// differs from run to run in that id only; so does its reply. With
// Options.Echo (depgraph's Graph.EchoOf says where a recorded call's
// echoed fields lie, its match is read at the same place) those bytes
// are left out of the comparison of the data sent and received, and
// everything else (the question a DNS query asks, the interfaces a dump
// lists) must match. The netlink port id a socket address reports
// (nl_pid) is volatile like a port.
//
// # Text data (TextDiff)
//
// Where the data of a matched pair differs and both sides read as text
// (IsText), diff shows the lines that differ as a unified diff
// (TextDiff): go-udiff's Myers diff of the lines (the diff of gopls), in
// standard "@@ -l,n +l,n @@" hunks with a few lines of context, so two
// changes far apart in a long file are two small hunks.
package align
