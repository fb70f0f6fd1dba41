package replay

import (
	"testing"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// signalDiff is a signal item: good and here values, nil for default.
func signalDiff(name string, good, here *string) align.StartDiff {
	d := align.StartDiff{Kind: trace.StartSignal, Name: name}
	if good != nil {
		d.A = &trace.StartEvent{Kind: trace.StartSignal, Name: name, Value: *good}
	}
	if here != nil {
		d.B = &trace.StartEvent{Kind: trace.StartSignal, Name: name, Value: *here}
	}
	return d
}

// TestApplySignals: a run that replays signal items starts the command
// with the caller's dispositions and the items' good ones: SIGHUP
// ignored, SIGTERM back to its default and unblocked; a run without any
// leaves the helper's default (nil: the caller's).
func TestApplySignals(t *testing.T) {
	ign, blk := "ignored", "ignored blocked"
	sc, err := applyStart(nil, []align.StartDiff{signalDiff("SIGHUP", &ign, nil), signalDiff("SIGTERM", nil, &blk)}, launch.Bound{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.signals == nil {
		t.Fatal("no signal dispositions set")
	}
	hup, term := uint64(1)<<0, uint64(1)<<14
	caller := launch.CallerSignals()
	want := trace.SignalSets{Ignored: caller.Ignored&^term | hup, Blocked: caller.Blocked &^ (term | hup)}
	if *sc.signals != want {
		t.Errorf("signals %+v, want %+v", *sc.signals, want)
	}
	if sc, _ := applyStart(nil, nil, launch.Bound{}); sc.signals != nil {
		t.Errorf("a run without signal items sets %+v", *sc.signals)
	}
	if _, err := applyStart(nil, []align.StartDiff{signalDiff("SIGNOPE", &ign, nil)}, launch.Bound{}); err == nil {
		t.Error("an unknown signal was applied")
	}
}

// TestSignalItemsOnlyWhenRecorded: a trace written before signal
// dispositions were recorded (Header.Signals unset) has none, which says
// nothing: the live ones are not compared with it.
func TestSignalItemsOnlyWhenRecorded(t *testing.T) {
	live := []trace.StartEvent{{Kind: trace.StartUmask, Value: "0022"}, {Kind: trace.StartSignal, Name: "SIGHUP", Value: "ignored"}}
	old := &Recording{Trace: &tracefile.Trace{}}
	if got := old.liveCompared(live); len(got) != 1 || got[0].Kind != trace.StartUmask {
		t.Errorf("an older trace compares %+v, want the umask only", got)
	}
	recorded := &Recording{Trace: &tracefile.Trace{Header: trace.Header{Signals: true}}}
	if got := recorded.liveCompared(live); len(got) != 2 {
		t.Errorf("a trace with signals compares %+v, want both", got)
	}
}
