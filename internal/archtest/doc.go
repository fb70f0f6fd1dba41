// Package archtest holds tests of rules about the module's shape that
// the compiler does not enforce. It has no code of its own.
//
// The core never imports the engine: the packages that read traces and
// decide (trace, systable, tracefile, depgraph, align, render, verdict,
// bisect, container) must build without the launcher, the ptrace engine,
// the eBPF recorder and their kernel-facing libraries (go-seccomp-bpf,
// cilium/ebpf), so that they stay testable without root or a tracee, and
// build on any host. The test asks `go list -deps -json` for what each of
// those packages links and fails, naming the import chain, when a
// forbidden package shows up. Test files are not part of what `go list
// -deps` reports: a core package's tests may still start real runs.
package archtest
