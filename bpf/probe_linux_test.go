//go:build linux && amd64

package bpf

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestLost: a one-page ring that nobody reads overflows, and the program
// counts what it dropped.
func TestLost(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF)
	bin := buildVictim(t)
	p := loadProbe(t, Options{Filter: Filter{Kind: FilterTree}, RingSize: 4096})
	v := startVictim(t, bin, "spin", "2000")
	if err := p.Track(v.pid); err != nil {
		t.Fatal(err)
	}
	v.release(t)
	if code := v.wait(t); code != 0 {
		t.Fatalf("victim exited %d", code)
	}
	lost, err := p.Lost()
	if err != nil {
		t.Fatal(err)
	}
	// A call whose record does not fit sends no chunks, so lost chunks
	// are rare here: the calls count.
	if lost.Calls == 0 {
		t.Errorf("Lost = %+v, want lost calls", lost)
	}
	recs := drain(t, p)
	if len(recs) == 0 {
		t.Errorf("nothing in the ring")
	}
	t.Logf("lost %+v, %d records in the ring", lost, len(recs))
}

// TestClose: Close unblocks a waiting Read, and Read after Close fails
// with os.ErrClosed.
func TestClose(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF)
	p := loadProbe(t, Options{Filter: Filter{Kind: FilterTree}, RingSize: 1 << 16})
	errc := make(chan error, 1)
	go func() {
		_, err := p.Read()
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, os.ErrClosed) {
			t.Errorf("blocked Read after Close: %v, want os.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not unblock Read")
	}
	if _, err := p.Read(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Read after Close: %v, want os.ErrClosed", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestWake: Wake ends a ReadRaw waiting for its poll interval (an hour
// here) with ErrWoken, once; a Wake before the read ends the next one;
// ReadBatch takes a Wake as the end of a poll interval.
func TestWake(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF)
	p := loadProbe(t, Options{Filter: Filter{Kind: FilterTree}, RingSize: 1 << 16, Poll: time.Hour})
	// A read that Wake does not end ends here, with another error.
	p.SetDeadline(time.Now().Add(30 * time.Second))
	errc := make(chan error, 1)
	go func() {
		_, err := p.ReadRaw(nil)
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := p.Wake(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, ErrWoken) {
		t.Errorf("ReadRaw waiting when woken: %v, want ErrWoken", err)
	}
	if err := p.Wake(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ReadRaw(nil); !errors.Is(err, ErrWoken) {
		t.Errorf("ReadRaw after a Wake: %v, want ErrWoken", err)
	}
	if err := p.Wake(); err != nil {
		t.Fatal(err)
	}
	if n, err := p.ReadBatch(func(*Record) {}); n != 0 || err != nil {
		t.Errorf("ReadBatch after a Wake: %d, %v; want 0, nil", n, err)
	}
	// Woken once: the next read waits for its deadline.
	p.SetDeadline(time.Now())
	if _, err := p.ReadRaw(nil); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("ReadRaw with the ring empty and the deadline passed: %v, want os.ErrDeadlineExceeded", err)
	}
}

// TestOptions: Load checks its options; Track needs FilterTree.
func TestOptions(t *testing.T) {
	for name, o := range map[string]Options{
		"ring not a power of two": {Filter: Filter{Kind: FilterTree}, RingSize: 5000},
		"ring below a page":       {Filter: Filter{Kind: FilterTree}, RingSize: 1024},
		"no filter":               {},
		"cgroup without id":       {Filter: Filter{Kind: FilterCgroup}},
		"capture too large":       {Filter: Filter{Kind: FilterTree}, MaxCapture: 1 << 30},
	} {
		if p, err := Load(o); err == nil {
			p.Close()
			t.Errorf("%s: Load accepted %+v", name, o)
		}
	}
	testutil.Require(t, testutil.Root, testutil.EBPF)
	p := loadProbe(t, Options{Filter: Filter{Kind: FilterCgroup, Cgroup: 1}, RingSize: 1 << 16})
	if err := p.Track(uint32(os.Getpid())); err == nil {
		t.Errorf("Track with FilterCgroup succeeded")
	}
}
