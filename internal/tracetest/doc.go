// Package tracetest builds synthetic traces for tests: the events a
// recorder would write for a few calls and processes, made from syscall
// names, so that the stages that read traces (depgraph, bisect, align,
// render) are tested without root and without a tracee.
//
// A Builder numbers calls as the recorder does (a global Seq and a TSeq
// per thread) from the amd64 syscall table, and lets a test name a call
// with a label to find its Seq again. Options (Opt) attach what the
// recorder would have captured: memory (Mem), a path argument (Named), the
// path of an fd (Path), another thread (On), a call that never returned
// (NoReturn). Packages add their own builders of larger shapes (a file
// read, a process spawned) on top.
//
// It imports only the plain data packages (trace, systable), so that the
// tests of any stage may use it; it never builds a dependency graph (the
// tests of depgraph use it).
package tracetest
