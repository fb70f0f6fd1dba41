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
// maxPending events the tracer waits for it rather than grow without
// bound.
//
// The start events (argv, environment, auxv, cwd, umask, credentials,
// rlimits, uname, hostname, personality) are read at the command's first
// exec, before its first call, and written as the trace's start frame.
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
package record
