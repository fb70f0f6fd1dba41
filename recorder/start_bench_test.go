//go:build linux && amd64

package recorder

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

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
// may have followed again and again; stop kills it.
func sleeper(b *testing.B) (pid uint32, stop func()) {
	cmd := exec.Command("sleep", "3600")
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	stop = func() { cmd.Process.Kill(); cmd.Wait() }
	b.Cleanup(stop)
	return uint32(cmd.Process.Pid), stop
}

// BenchmarkStartThroughRecorder is what a recording's start costs
// through a resident recorder: connect, have it follow the process (the
// Ack), and hang up. Compare BenchmarkStartLoadingProbe.
//
//	go test -run XXX -bench Start -benchtime 20x ./recorder/
func BenchmarkStartThroughRecorder(b *testing.B) {
	benchSessions(b, func(*Session) {})
}

// BenchmarkFollowAndDrainThroughRecorder is a whole session's round
// trips through a resident recorder: connect, follow, drain (ask for the
// end and read it), hang up. The process followed makes no calls.
//
//	go test -run XXX -bench ThroughRecorder -benchtime 20x ./recorder/
func BenchmarkFollowAndDrainThroughRecorder(b *testing.B) {
	benchSessions(b, func(s *Session) {
		s.SetDeadline(time.Now())
		for {
			if _, err := s.ReadBatch(func(*bpf.Record) {}); err != nil {
				if !errors.Is(err, os.ErrDeadlineExceeded) {
					b.Fatal(err)
				}
				break
			}
		}
		if _, err := s.Lost(); err != nil {
			b.Fatal(err)
		}
	})
}

// benchSessions times, each iteration, a session with a recorder started
// once: connect, follow a process of its own (the recorder may still be
// ending the last session's: it runs the hang-up after the next
// client's follow), then during, then hang up.
func benchSessions(b *testing.B, during func(*Session)) {
	testutil.Require(b, testutil.Root, testutil.EBPF)
	srv, err := Start(Config{Socket: filepath.Join(b.TempDir(), "r.sock"), GID: -1, Probe: probeOptions(b)})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		pid, stop := sleeper(b)
		b.StartTimer()
		s, err := Dial(srv.cfg.Socket, bpf.DefaultMaxCapture)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Track(pid); err != nil {
			b.Fatal(err)
		}
		during(s)
		s.Close()
		b.StopTimer()
		stop()
		b.StartTimer()
	}
}

// BenchmarkStartLoadingProbe is what a recording's start costs when it
// loads the probe itself: load, verify, attach, follow the process, and
// unload.
func BenchmarkStartLoadingProbe(b *testing.B) {
	testutil.Require(b, testutil.Root, testutil.EBPF)
	po := probeOptions(b)
	pid, _ := sleeper(b)
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
