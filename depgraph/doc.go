// Package depgraph is envbisect's dependency tracker. From a trace it
// builds a Graph: the resources the calls touch, an edge from each call
// to the calls that last defined what it uses, groups of linked calls
// ("the file /etc/vsftpd.conf", "the connection to 127.0.0.1:5432"), and,
// for locate, the dependency closure of a replay plan (Closure). It reads
// trace values only and never touches a kernel; everything it knows of a
// call comes from the call's syscall table row (argument kinds, effect
// bits, flag sets and their value names) and from what the recorder
// stored (Ret, Path, Path2, Mem). Per-syscall facts are columns of the
// row (Made, Socket, Unmaps, WrittenFD, request effects, enum rules) and
// struct layouts are systable's; facts.go only reads them. No syscall,
// argument, flag or struct name is compared here (internal/archtest
// checks it).
//
// Resources carry typed fields besides their printable Name (FD of an
// inherited fd, Address of a mapping, Object of an anonymous fd, Path,
// Local and Peer), so that replay and the reports never parse names.
// The Graph is a stage of its own: the CLI builds it once and hands it
// to replay.Prepare and to the search.
//
// # Mechanism
//
// Building takes two passes over the events, each one event at a time
// (so a caller can stream them from the trace file): Spawns pairs each
// new thread with the clone, fork or vfork that made it (its Spawn event
// may come before or after that call), then a Builder adds the events
// in order and finishes the graph; Build and BuildWith are that loop
// over a slice, BuildPasses over any pass (a tracefile.Store's Each,
// which reads the events from the file). A lean graph
// (BuildOptions.Lean) keeps no *trace.Call:
// per call it holds its seq, syscall, process, group, class and edges
// (or only their count, BuildOptions.CountEdges), and the calls on
// sockets until the graph is finished, which reads their messages for
// the echo protocols and DNS. It is what deps prints from. A graph
// built with BuildOptions.Source holds what a lean one does and reads a
// call from its CallSource when asked (Call, Path, AllCalls: call-level
// runs, whose tracefile.Store keeps the calls in the trace file and a
// few decoded frames in memory); a call so read may be another copy
// each time, so callers compare calls by seq, never by pointer. Closure
// reads no call: what it needs of one (no result, incomplete, failed,
// its file object) is in the call's info, so a plan costs no read of
// the trace. Calls are found by seq in a sorted slice of seqs, at once
// where the seqs go up by one.
//
// The Builder walks the events once, in order, keeping a model of the kernel
// state of the traced processes (state.go). Every piece of state remembers
// the call that last defined it; a call that uses the piece gets an edge
// to that call (Edge, with the reasons as Why bits). A call's edges are
// all added before anything it defines, so a call never depends on
// itself, and only calls that succeeded define anything (a connect in
// progress counts as succeeded).
//
//   - Fd tables. Each process has a table from fd numbers to open file
//     descriptions (a systable.FDTable, which applies the kernel's rules
//     for dup, close, close_range and exec); fork and clone copy it,
//     CLONE_FILES shares it. A call
//     passing an fd depends on the call that put the description on that
//     number (open, socket, accept, pipe, dup, dup2, fcntl F_DUPFD) (ByFD),
//     on the last call that changed the description's state (F_SETFL,
//     FIONBIO, bind, connect, listen, setsockopt, shutdown, epoll_ctl ...)
//     (ByState) and, if it reads or writes at the current offset, on the
//     last call that moved the offset or consumed the stream (read, write,
//     lseek, recv, accept ...) (ByPosition); lseek(SEEK_SET) starts a new
//     chain. close depends on the fd only.
//     Close-on-exec is tracked per fd from the flags the making call
//     passed (any *_CLOEXEC bit the row's flag sets name, F_DUPFD_CLOEXEC,
//     openat2's open_how) and from F_SETFD, FIOCLEX, FIONCLEX and
//     close_range; exec closes those fds. An fd no call in the trace made
//     is inherited: stdin, stdout, stderr of the command.
//   - Paths. Each absolute path (the recorder resolves them against the
//     cwd or dirfd) remembers the last call that created, removed, renamed
//     or modified it (O_CREAT, O_TRUNC, mkdir, unlink, rename, chmod,
//     mount, and writes through an fd opened on it), and for a directory
//     the last call that added or removed an entry. A call naming a path
//     depends on the definitions of the path, of its entries and of every
//     directory above it; a call on an fd depends on the modifications of
//     its file made after the open (ByContent). So an open depends on the
//     mkdir of the directory it creates a file in, and a read of a file
//     on the write that filled it, even in another process. A rename
//     depends on everything defined below its source and carries it over
//     to the new name. Writes to devices (/dev, but /dev/shm) define
//     nothing.
//   - Working directories. A call naming a relative path without a dirfd
//     depends on the last chdir or fchdir of its process (ByCwd);
//     CLONE_FS shares the working directory. With a dirfd it depends on
//     the dirfd instead.
//   - Processes and threads. Every call depends on the clone, fork or
//     vfork that made its thread, or the last exec of its process
//     (ByProcess). The creating call is found by pairing each Spawn event
//     with the next successful creating call of the parent thread.
//   - Process attributes. Calls subject to credentials, limits, umask,
//     root or namespaces depend on the last call that changed them
//     (ByAttrs); fork copies them.
//   - Mappings. mmap with an fd maps a file; munmap, mprotect, msync ...
//     on an overlapping range depend on that mmap (ByMapping). exec clears
//     the mappings, CLONE_VM shares them.
//   - Sockets record their bound, connected and accepted addresses
//     (struct sockaddr decoded for AF_INET, AF_INET6, AF_UNIX); epoll sets
//     the fds added to them; poll and select depend on the fds in their
//     pollfd arrays and fd_sets.
//
// Edges therefore close transitively: an executed read needs its open,
// which needs the mkdir of the directory, which needs the chdir its
// relative path resolved against.
//
// # Classes and groups
//
// Once the whole trace is read, every resource gets a Class (BRIEF, "Input
// is not environment"). Pipes, socketpairs, FIFOs made in the trace,
// eventfds and other process-owned objects, processes and memory are
// Internal; so is a connection to an address a traced socket is bound to,
// and a connection a traced server accepted from a traced client (the
// listener's address matches a traced connect). Inherited fds and
// connections accepted from untraced clients are Input. Files, outside
// connections, listeners and the kernel's answers are Environment. A
// call's class is the strongest class of the resources it acts on
// (Internal over Input over Environment).
//
// Every call is in exactly one Group, chosen by the resource it is most
// about: the description it creates, else the first path it names, else
// the first fd it passes, else the mapping it changes. Descriptions and
// paths group by path (all opens of /etc/hosts and the stat of it are
// "the file /etc/hosts"; a path used as a directory is a directory
// group), sockets by address (all connections to 127.0.0.1:5432), but a
// socket whose echo protocol row has DNS messages (systable's
// MessagesDNS: UDP or TCP to port 53) by the questions its queries and
// answers ask ("the answer for artifacts.internal A", a GroupDNS shared
// by the sockets that ask the same: dns.go, which reads the calls' data
// with EchoMems, cuts it as the row frames it and decodes it with package
// dnsmsg; DNSMessages does the same for a group's recorded or live calls,
// for the report), pipes, epoll sets and other fds by instance,
// inherited fds by number. Calls
// with no resource are grouped by process (process life, signals,
// thread setup, which always execute; and anonymous memory) or, for the
// kernel's answers, by syscall name ("the kernel's answers to uname").
// Group IDs follow the groups' first calls, so the same trace always
// gives the same IDs.
//
// # Echo protocols
//
// Once the trace is read, each socket whose family, type, protocol and
// the port it sends to match a row of systable's echo protocols
// (netlink; DNS over UDP and TCP to port 53) is marked with it
// (Resource.Echo), and each call on it gets an EchoCall (Graph.Echo):
// whether it made the socket, reports its port id (getsockname, bind),
// sends a request or receives a reply, and, for a length-prefixed
// stream, where the stream stood before the call's data (echo.go). A
// call's messages are EchoMems: its one data buffer, or one per entry of
// a sendmmsg or recvmmsg array (glibc's resolver sends A and AAAA in one
// sendmmsg), each cut by EchoBytes to what the kernel took or gave (the
// return value, or the entry's msg_len).
// align compares such data without the echoed ids (Graph.EchoOf) and
// replay writes the live ids into the replies it replays.
//
// # The plan's closure
//
// Closure is what locate asks for each run: given the calls the search
// wants replayed (a prefix, or some groups), it returns a Plan with each
// call's Action. A call is replayed if asked and the syscall table's
// Policy says Replayable, it returned, and it acts on nothing internal or
// input; every other call executes. Then every call that executes needs
// its dependencies to have really happened: each one that was to be
// replayed becomes ExecuteThenOverwrite (it runs, and its recorded
// results are written over the live ones), transitively. A replayed
// call that changed a file-system object in the recording
// (RunsWhenReplayed, effects.go: it created, removed or modified a path
// or the file behind the fd it wrote through, by the row's KeptEffects
// bits CreatesPath, RemovesPath, ModifiesFile, and by the model above,
// which knows whether the fd's description is a file, a pipe, a socket,
// a device or an inherited fd) runs too, because package replay keeps
// the program's effects: it stays Replay, but what it depends on
// becomes ExecuteThenOverwrite like an executed call's dependencies (the
// open of the fd a write goes through, which replayed would be a memfd
// stand-in, and the lseek or earlier write that placed its offset; the
// open of its dirfd; the chdir its relative path resolves against,
// which replayed would leave the kernel's working directory elsewhere;
// the mkdir of its parent). Writes to pipes, sockets, devices, the
// command's inherited stdout and stderr and anonymous fds are not kept
// effects. An open for writing without O_CREAT or O_TRUNC changes
// nothing by itself and is not one: it becomes real through the writes
// that depend on it (ByFD), so one that only reads stays served. Except
// where
// the graph knows the trace's files (BuildServed, served.go): an edge
// whose every use is an fd argument of which the call needs only the
// file's content (systable's Arg.ContentOnly: read, mmap, fstat ...;
// Edge.ContentOnly) does not make a replayed open of a regular file the
// trace keeps execute, since its stand-in holds that file (package
// serve); where the trace does not keep it, the open executes with
// reason NotServed and Plan.Note says why and which record flag would
// keep it. The plan is a function of the graph and the question only.
//
// An exec (systable's ServesImage) always executes, unless the trace
// keeps the image it ran (BuildServed's files, asked once per call at
// build time): then it is replayable, and replayed it runs the recorded
// image, so the calls of the new image that depend on it do not make it
// execute. The command's own exec (its thread has no creating call) is
// the tracer's helper's and always executes. A successful exec whose
// image a trace with files does not keep executes with the reason
// ImageNotStored, and Plan.Note says why and the remedy; in a trace
// without files (format version 1) execs execute as before.
//
// # Not modelled (yet)
//
// fds passed over unix sockets (SCM_RIGHTS) and taken with pidfd_getfd
// from another process are new fds of unknown origin; writes into shared
// file mappings do not define the file's content; hard links and
// symlinks are separate paths (no inode identity); a rename does not move
// what open descriptions know of their path; readiness that poll, select
// and epoll_wait report is not linked to the calls that made an fd ready;
// signals between processes and the order that futexes impose are not
// edges; shared memory (shmget, mq_*) names are not paths.
package depgraph
