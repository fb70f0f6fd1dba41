package trace

import (
	"reflect"
	"testing"
)

// TestSignalNames: names as signal(7) spells them, back and forth,
// real-time ones counted from glibc's SIGRTMIN (34).
func TestSignalNames(t *testing.T) {
	for n, want := range map[int]string{1: "SIGHUP", 13: "SIGPIPE", 31: "SIGSYS", 34: "SIGRTMIN", 36: "SIGRTMIN+2", 64: "SIGRTMIN+30", 32: "SIG32"} {
		if got := SignalName(n); got != want {
			t.Errorf("SignalName(%d) = %q, want %q", n, got, want)
		}
		if back, ok := SignalNumber(want); !ok || back != n {
			t.Errorf("SignalNumber(%q) = %d, %v; want %d", want, back, ok, n)
		}
	}
	if _, ok := SignalNumber("SIGNOPE"); ok {
		t.Error("SignalNumber(SIGNOPE) found a signal")
	}
}

// TestSignalSetsEvents: one event per settable signal ignored or
// blocked, in signal order; SIGKILL, SIGSTOP and glibc's 32 and 33 never
// appear. Set gives each back.
func TestSignalSetsEvents(t *testing.T) {
	bit := func(n int) uint64 { return 1 << (n - 1) }
	s := SignalSets{Ignored: bit(1) | bit(13) | bit(9) | bit(32), Blocked: bit(13) | bit(10) | bit(19) | bit(33)}
	want := []StartEvent{
		{Kind: StartSignal, Name: "SIGHUP", Value: "ignored"},
		{Kind: StartSignal, Name: "SIGUSR1", Value: "blocked"},
		{Kind: StartSignal, Name: "SIGPIPE", Value: "ignored blocked"},
	}
	got := s.Events()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Events() = %+v, want %+v", got, want)
	}
	var back SignalSets
	for _, e := range got {
		v := e.Value
		if !back.Set(e.Name, &v) {
			t.Fatalf("Set(%s) refused", e.Name)
		}
	}
	if w := (SignalSets{Ignored: bit(1) | bit(13), Blocked: bit(13) | bit(10)}); back != w {
		t.Errorf("Set gave %+v, want %+v", back, w)
	}
	back.Set("SIGPIPE", nil)
	if back.Ignored&bit(13) != 0 || back.Blocked&bit(13) != 0 {
		t.Errorf("Set(SIGPIPE, nil) left %+v, want SIGPIPE default and unblocked", back)
	}
	if back.Set("SIGKILL", nil) {
		t.Error("Set(SIGKILL) accepted a signal no process can ignore")
	}
}
