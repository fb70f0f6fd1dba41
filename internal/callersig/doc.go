// Package callersig holds the signal dispositions envbisect's caller
// gave it: the signals it started with ignored (SIG_IGN) and blocked.
//
// A Go program cannot read them once it runs. Its runtime installs a
// handler of its own for every signal but SIGHUP and SIGINT ignored at
// start and a few job-control ones, so an inherited SIG_IGN of, say,
// SIGPIPE is gone from the process (and from every child it starts:
// a child resets the runtime's handlers to SIG_DFL), and every thread it
// starts unblocks the signals the runtime needs (SIGHUP, SIGTERM,
// SIGQUIT, ...). What the command of a run inherits must be what the
// user's shell gave envbisect (a recording under nohup, a CI runner that
// ignores SIGPIPE), not what the Go runtime left, so this package reads
// them before the runtime starts: a C constructor (cgo, run by the C
// library before Go's entry point) saves them, and Original returns
// them. Every binary that imports package launch (envbisect, the test
// binaries, the re-executed helper) runs it.
//
// Built without cgo, Original reads what /proc says of envbisect itself,
// which is exact only for the signals the runtime leaves alone (SIGHUP,
// SIGINT, SIGTSTP, SIGTTIN, SIGTTOU ignored; blocked signals the runtime
// does not need), and says so (Exact false).
package callersig
