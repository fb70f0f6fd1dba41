package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
)

// BenchmarkEBPFRecordCloop records cloop (200,000 iterations of open, a
// 512-byte read and close: 600,000 calls) with the eBPF backend at its
// default settings, once per iteration. It is there to be profiled: the
// reader's share of the recorder's CPU is its cost per call
// (docs/performance.md, "The eBPF recorder's user space"):
//
//	go test -run '^$' -bench EBPFRecordCloop -benchtime 3x -cpuprofile cpu.out ./record
//	go tool pprof -top -cum -focus startReading record.test cpu.out
func BenchmarkEBPFRecordCloop(b *testing.B) {
	testutil.Require(b, testutil.Root, testutil.EBPF)
	cloop := testutil.BuildC(b, "cloop.c", false)
	data := filepath.Join(b.TempDir(), "cloop.dat")
	if err := os.WriteFile(data, []byte(strings.Repeat("envbisect bench\n", 32)), 0o644); err != nil {
		b.Fatal(err)
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devnull.Close()
	for b.Loop() {
		sum, err := Run(Options{Backend: trace.BackendEBPF, CPU: -1, Output: filepath.Join(b.TempDir(), "t.envb"),
			Argv: []string{cloop, "200000", data}, Stdin: devnull, Stdout: devnull, Stderr: devnull})
		if err != nil {
			b.Fatal(err)
		}
		if sum.Lost != nil && sum.Lost.Any() {
			b.Logf("lost %+v", *sum.Lost)
		}
	}
}
