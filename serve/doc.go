// Package serve hands a semi-replay run the good environment's objects
// that the trace keeps, where a replayed call must give the program more
// than a return value: the content of a file it opened (a library the
// dynamic loader maps, a data file, a configuration read through an fd
// whose calls execute), the binary an execve ran.
//
// # Mechanism
//
// A Store reads a trace's file objects (trace.FileObject) through a
// Source, which package tracefile's Trace is. The first time a run needs
// an object's content, the Store copies it from the trace into a sealed
// memfd of envbisect's own (materialize.go), once per Store however many
// runs and opens ask for it. Serving it to a traced process (Fill) then
// costs one kernel-side copy: the ptrace engine has the thread make a
// memfd where the program expects its fd (the replayed open becomes
// memfd_create), and Fill opens that memfd through /proc/PID/fd/N,
// copies the content into it, gives it the recorded mode, owner and
// modification time, and seals it, so that what the program's executed
// read, pread, mmap, fstat or lseek see is the good file. Nothing is
// written to any file system: a memfd lives in memory and goes with its
// last fd or mapping.
//
// Who uses it: one Store per locate or replay process (and per --jobs
// worker: memfds do not cross processes), made by the CLI from the trace
// and handed to every run through replay.Options.Serve and
// ptrace.Config.Serve; the ptrace engine fills the stand-ins of replayed
// opens (ptrace/serve_linux.go). depgraph's closure decides, from the
// same file objects, which replayed opens need not execute.
//
// What the trace does not hold (content excluded, over the recording's
// budget, unreadable at record time), and what is not a regular file,
// cannot be served: Servable says so, with the reason, and the caller
// executes the call instead.
package serve
