//go:build linux && amd64

package recorder

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/systable"
)

// probeOptions are the options record loads the probe with.
func probeOptions(b *testing.B) bpf.Options {
	tab, err := systable.Native()
	if err != nil {
		b.Fatal(err)
	}
	po := bpf.Options{Filter: bpf.Filter{Kind: bpf.FilterTree}}
	po.Syscalls, po.Ioctls, po.Fcntls, po.Prctls = bpf.DescribeTable(tab)
	return po
}

// sleeper is a process to follow: a child of the benchmark, which root
// may have followed again and again.
func sleeper(b *testing.B) uint32 {
	cmd := exec.Command("sleep", "3600")
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return uint32(cmd.Process.Pid)
}

// BenchmarkStartThroughRecorder is what a recording's start costs
// through a resident recorder: connect, have it follow the process (the
// Ack), and hang up. Compare BenchmarkStartLoadingProbe.
//
//	go test -run XXX -bench Start -benchtime 20x ./recorder/
func BenchmarkStartThroughRecorder(b *testing.B) {
	testutil.Require(b, testutil.Root, testutil.EBPF)
	srv, err := Start(Config{Socket: filepath.Join(b.TempDir(), "r.sock"), GID: -1, Probe: probeOptions(b)})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	pid := sleeper(b)
	b.ResetTimer()
	for b.Loop() {
		s, err := Dial(srv.cfg.Socket, bpf.DefaultMaxCapture)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Track(pid); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// BenchmarkStartLoadingProbe is what a recording's start costs when it
// loads the probe itself: load, verify, attach, follow the process, and
// unload.
func BenchmarkStartLoadingProbe(b *testing.B) {
	testutil.Require(b, testutil.Root, testutil.EBPF)
	po := probeOptions(b)
	pid := sleeper(b)
	b.ResetTimer()
	for b.Loop() {
		p, err := bpf.Load(po)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Track(pid); err != nil {
			b.Fatal(err)
		}
		p.Close()
	}
}
