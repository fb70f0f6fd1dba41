// Package record runs a command under the tracer and writes what it sees
// to a trace file.
//
// The tracer thread hands events to a batcher and never waits for the
// disk: a writer goroutine takes the pending events every 20 ms (or as
// soon as 256 are waiting), and the tracefile writer encodes, compresses
// and appends them as one frame. A recorder killed with SIGKILL therefore
// loses at most the last 20 ms of events; the trace reads back up to its
// last complete frame, and the kernel kills the traced processes
// (PTRACE_O_EXITKILL). If the writer falls behind by more than
// maxPending events, or maxPendingBytes of their buffers, the tracer
// (the eBPF recorder's reader) waits for it rather than grow without
// bound.
//
// The start events (argv, environment, auxv, cwd, umask, credentials,
// rlimits, uname, hostname, personality) are read at the command's first
// exec, before its first call, and written as the trace's start frame.
//
// What the command does that envbisect cannot see or let it do is
// warned about once per kind while it records (unseen.go, over
// render.UnseenFinder, which locate's report uses on the same calls):
// io_uring, a ptrace of its own refused with EPERM.
//
// # Secrets
//
// Between the engine and the batcher stands a guard (guard.go), the
// launch.Observer the engine is given: every start event and call passes
// through it on the tracer's side before it is queued, so what it drops
// never reaches the file and no pass over the trace is needed. It redacts
// environment values by variable (secretguard.go: the envPolicy of
// envpolicy.go and the data table secretnames.go decide which): a start
// event keeps trace.SecretHash of the value (scrypt, the header's salt),
// an exec's environment block says NAME=<redacted>, and any other buffer
// that carries a redacted value, or a read of /proc/PID/environ, is
// dropped with a Mem.Note. With --exclude-content it learns each excluded
// file's content at its first open and drops any buffer that holds one of
// its 64-byte chunks, and the short writes of a process that read or
// mapped it (contentguard.go); the content store asks it too, so a copy
// of the content in another file keeps its hash only. docs/secrets.md
// states the rules and their limits.
//
// # File contents
//
// With the ptrace backend the trace keeps the good environment's files
// (content.go): the engine (ptrace.Config.Files) hands each distinct file
// a call opened for reading or executed to a contentStore, already open
// and identified, and names it in the call's Obj. The store decides what
// is kept there, on the tracer thread and so in the order the command
// opened the files: a path matching --exclude-content keeps its identity
// and hash (excluded), and a file that would take the raw content kept
// past --max-content likewise (over-budget, listed in
// Summary.OverBudget). Two goroutines then read, hash and chunk the
// files and write their chunks and file frames, each through a
// tracefile.ContentWriter of its own, between the batcher's event
// frames; the tracer waits only when 4096 files are queued. Run waits for the store
// before writing the end frame. Semi-replay runs keep nothing, and the
// eBPF backend keeps no contents yet (Run warns).
//
// A file the command only stat'ed (stat, lstat, newfstatat, statx of a
// path) is kept too when a package owns it in the root the command sees
// (keepstated.go, the engine asking the store's KeepsStated once per
// distinct file), with no call naming it: an interpreter stats a
// module's source and loads its compiled cache (Python's .py and
// __pycache__/*.pyc), and a materialized run that puts a package back
// needs both. Files no package owns are not kept when only stat'ed.
//
// With Options.ContentCache (the CLI's default: ~/.cache/envbisect/content)
// the goroutines first fstat the open file and look its version up in a
// tracefile.ContentCache shared by recordings: a hit copies the chunk
// frames an earlier recording stored, and reads, hashes and compresses
// nothing; a miss stores the file from its bytes and notes what it wrote
// for the cache, unless the file's key changed while it was read. A file
// of gcc's cc1 (33 MB) costs about 0.2 s of zstd on the project's VM,
// more than the compile it serves; from the cache it costs a copy.
//
// The cache is only read while the command runs: it may be in a tree the
// command reads (the default is under HOME), and nothing envbisect
// writes may be where the command sees it (launch/places.go). The misses
// (entries that name where their frames are in the trace, not copies),
// the hits to mark as used and the refused entries to drop wait in a
// cacheUpdate (cacheupdate.go), which Run applies after the command has
// exited and its check has run, before it closes the trace (the frames
// are read back from it), and then trims the cache to its bound; the
// cache's directory is made then, if need be. A second signal stops the
// update between two entries; each entry is renamed into place whole.
//
// # Owners and parents
//
// Before storing a file object, a content goroutine looks up the package
// that owns the file in the database of the root the command sees
// (pkgdb.OpenWhole, on "/" or the joined process's /proc/PID/root;
// FileObject.Package), every file alike, so that a search can group the
// files that differ by package; the first lookup builds the database's
// whole index, once per recording (docs/performance.md). A database that
// cannot be read is warned about at the end, and the trace has no owners.
// With a content cache directory the owners looked up are kept there too
// (ownercache.go: owners.json, valid while pkgdb.Stamp of the database
// is unchanged, read on a goroutine while the command starts and
// written with the cache after the command has exited): a repeated
// recording of the same command builds no index, which took longer than
// a short command (gcc, git status) to run.
//
// The batcher's observer is parentStats (parents.go): for each call with
// a path argument (systable's HasPath) it stats the parent directories of
// the call's paths that no earlier call named, in the root of the calling
// process (/proc/PID/root, links followed inside it), on the tracer
// thread, and stores them with the call (Call.Dirs): locate's
// explanation of a call denied here compares them with the directories
// here. Each directory is stat'ed once, up to 65,536 of them.
package record
