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
package record
