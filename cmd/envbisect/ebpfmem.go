package main

import (
	"os"
	"runtime/debug"

	"github.com/envbisect/envbisect/trace"
)

// ebpfMemoryLimit is the soft limit of the Go memory of an eBPF
// recording (runtime/debug.SetMemoryLimit). Its live data is small (the
// events on their way to the trace, bounded by the recorder's queue, and
// the compressor's window: about 15-20 MiB), but the collector's default
// pace lets the heap grow to twice that between collections; with the
// ring's mapping (twice its size) and the program's own pages, that took
// a recording of a call-dense program past 64 MiB. Under this limit the
// collector runs earlier instead; the ptrace recorder, which keeps file
// contents, is left at the default pace.
const ebpfMemoryLimit = 32 << 20

// limitEBPFMemory sets ebpfMemoryLimit for an eBPF recording, and for
// the resident recorder, unless the user chose a limit with GOMEMLIMIT.
func limitEBPFMemory(backend string) {
	if backend != trace.BackendEBPF || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(ebpfMemoryLimit)
}
