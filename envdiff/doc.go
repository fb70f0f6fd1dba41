// Package envdiff is the static environment diff of a materialized run's
// search (issue 27, candidates by inspection): before any run, it
// compares every object of the file system the recording observed with
// its state here, and returns those that differ as envobj.Objects, each
// with its state in the good run, here, and the aspects that differ.
//
// # The good run's states
//
// One pass over the trace's calls, in order (observe.go), reads what
// each call shows of the paths it names (Call.Path, Path2), all through
// the syscall table's columns, never a call's name:
//
//   - a stat buffer (struct stat or statx, decoded with systable's
//     layouts): type, mode, owner, size, mtime;
//   - a file object (trace.FileObject, the call's Obj): the same and the
//     content's hash, the file that holds it and its package;
//   - a readlink answer (an OnLink row's out-buffer that holds a path):
//     a symbolic link and its target;
//   - a directory listing: the getdents calls on one fd until one returns
//     0; the first complete listing is the directory's entries;
//   - ENOENT (the path was missing), EEXIST of a creating call (it was
//     there), an open with O_DIRECTORY or a call that acts on a directory
//     (a directory), any other success of a call with a path (it was
//     there); the parents' stats record keeps with a call (Call.Dirs).
//
// Each observation is about the path itself when the call acts on a
// link (systable's FollowsLink false: lstat, readlink, AT_SYMLINK_NOFOLLOW)
// and about what it leads to otherwise. What was seen through a link is
// moved to where the link led (its target, or a file object's Resolved),
// so that a file reached through a link is one object. The good state of
// a path folds its observations: for each aspect the earliest.
//
// # A trace read as a stream
//
// Inspect walks a trace held whole; an Inspector (inspector.go) is the
// same walk given the events one at a time, as a tracefile reader hands
// them out, for a trace too long to hold (issue 29): it keeps per path
// only what the recording showed of it, and an observation that says
// what an earlier one of the same view said (a loop's millionth stat of
// one file) is dropped (obskey.go), since the fold never takes it. Its
// memory grows with the paths and file objects a trace names, not with
// its calls. A trace's file frames may follow the calls that name them:
// the Inspector notes the first call that named each file object, and
// observes it at the end as of that call. DataUsed says which buffers'
// bytes the walk reads, for a reader to leave the others in the file.
//
// # The command's own work
//
// A path the command created, removed, wrote, truncated, renamed or
// changed in the recorded run (systable's CreatesPath, RemovesPath and
// ModifiesFile, with their conditions: O_CREAT, O_TRUNC) is its work, not
// environment, and so is everything under a directory it made (Diff.Own).
// Observations after the first such change are dropped; when the
// recording saw the path before the change, that state is the object:
// a file the command read and then appended to, a path it found missing
// (a stat, ENOENT) and then created (a stale pid file here is then a
// difference). The content record kept of a file the command changed
// counts only when a stat before the change agrees with its size: record
// reads contents on goroutines of its own, after the open. In a
// directory the command made or removed entries in, the entries it
// touched and the directory's mtime are left out. Paths only reached
// through fds no traced call opened (the command's inherited stdin,
// stdout and stderr) are not environment either.
//
// # Here
//
// Paths are read under a root ("/", or /proc/PID/root for a container)
// with openat2's RESOLVE_IN_ROOT (here_linux.go): links, absolute ones
// included, resolve inside the root, never to this machine's file of the
// name. Here's state is the path's lstat when the recording saw the path
// itself, its stat otherwise; a link's target, a directory's names, and
// a regular file's hash when its size here equals the good one and the
// good hash is known (Options.MaxHash bounds the bytes read: the files
// the recorded command read, so about what record read). Aspects are
// compared only when both sides know them: a stat-only observation has
// no hash, and its content differs only by size. A directory listed in
// the recording whose entries differ is an object (AspectEntries); each
// entry that is here only is an object of its own, missing in the good
// run; an entry missing here is one when the recording knows its state.
// A path that led elsewhere through a link (a file object's Resolved)
// and leads elsewhere here, or nowhere, is an object too: a link to
// where it led, Target being that resolved path. Objects that differ by
// their mtime alone are listed apart (Diff.MtimeOnly): they are rarely
// a cause. envbisect's own files (the trace being read, its logs:
// Options.Ignore; the trace a recording was writing, which the good run
// may have listed: tracefile.IsPartialName) are never objects, nor
// entries.
//
// # Addresses (addresses.go)
//
// Beside the paths, BoundAddresses reads the IP addresses the good run
// bound (a successful call of a row that BindsAddress, the sockaddr it
// passed decoded; its protocol from the call that made the socket, by
// the socket's Path), loopback and wildcard only, port 0 left out; and
// HeldAddresses keeps those a process holds here, with its pid and
// executable, as a HolderFunc (launch.AddressHolderOf, in the runs'
// network namespace) finds them. They are the command's binds that fail
// here with EADDRINUSE: envobj.Address, a start item of the object
// search, not a path. Peers reads the IP addresses the command connected
// or sent to and, per socket, what it sent and received there (depgraph's
// EchoMems), leaving out its own servers (the addresses it bound): each
// an envobj.Peer with its conversation, a start item a stand-in puts in
// place.
//
// # The kernel's names (kernel.go)
//
// The release and version the recorded command's first uname answered
// (systable's KernelNames rows, decoded with its struct new_utsname)
// are compared with Options.KernelHere: each that differs is a start
// item of envobj.KindKernel in Diff.Kernel, put in place by a run that
// rewrites uname's answer (package replay's Spec.Uname). No namespace
// gives another release: the host and domain names, which a UTS
// namespace gives, are the caller's start items (trace.StartHostname).
//
// # Limits
//
// Inspection sees the file system only. /proc, /sys and /dev (but
// /dev/shm) hold the kernel's answers and devices, whose good state is
// not a file: they are listed in Diff.Skipped, and come from the first
// run's observation (later work), as do the start items (environment,
// limits, identity), network peers and host names (but the addresses
// the command binds, above). The exception are
// the kernel tunables the command read (tunables.go): a file under
// /proc/sys or /sys is compared by its value, the good one being the
// bytes the recording's reads returned, this one what reading it here
// gives (in a container, from a thread in its network, UTS and IPC
// namespaces, whose tunables /proc/sys shows to the reader); a value
// read in pieces that filled their buffers is a prefix. Files whose
// value changes by itself (volatileFiles: random ids, counters,
// measures) are skipped, never objects.
// Extended attributes, hard links and the ctime are not compared. A path
// that no call named, only listed, is known by its name alone. Paths are
// compared as the trace names them: a link in the middle of a path the
// recording did not show is followed on both sides alike.
package envdiff
