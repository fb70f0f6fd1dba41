package bisect

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
)

// TestFirstDifferingCallOverEveryCall: the configuration's read differs
// here and so does /etc/hosts, but replaying /etc/hosts breaks the run,
// so no set of differing resources passes and the search falls back to
// every call. There the verdict flips at the configuration's close (the
// last call whose replay is needed): that close is kept as the flip, and
// the culprit named is the first call of the file that differs here, its
// read, as the fail end observed it (the run next to the flip replayed
// it). Its resource is confirmed as the flip's would be.
func TestFirstDifferingCallOverEveryCall(t *testing.T) {
	b := standard(t)
	g := b.graph()
	read, closeConf := b.l("conf.read"), b.l("conf.close")
	conf := g.GroupOf(read).ID
	_, run := judged(g, differingFiles(t, b, g, "conf.", "hosts."), func(r Request) bool {
		if len(r.Groups) > 0 {
			return slices.Equal(r.Groups, []depgraph.GroupID{conf})
		}
		return (r.Prefix == All || r.Prefix >= closeConf) && !slices.Contains(r.Except, conf)
	})
	rep, err := Locate(context.Background(), g, run, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Space == nil || rep.Space.Over != render.SpaceAll {
		t.Fatalf("got %s (%s), space %+v; want located over every call", rep.Status, rep.Message, rep.Space)
	}
	c := rep.Culprit
	if c.Seq != read || c.Differs != render.DiffersContent || c.DataDiff == nil {
		t.Errorf("culprit %d (%s, data diff %v), want the read %d whose content differs", c.Seq, c.Differs, c.DataDiff != nil, read)
	}
	f := c.Flip
	if f == nil || f.Unit != render.FlipCall || f.Seq != closeConf || f.Syscall != "close" || !f.FirstDiffers ||
		f.Resource != "file /etc/fig79.conf" {
		t.Fatalf("flip %+v, want the close %d of file /etc/fig79.conf, the resource first differing at the read", f, closeConf)
	}
	want := fmt.Sprintf("replaying up to #%d flips the verdict; file /etc/fig79.conf first differs at #%d", closeConf, read)
	if got := render.FlipText(c); got != want {
		t.Errorf("flip text %q, want %q", got, want)
	}
	if rep.ConfirmRuns != 2 {
		t.Errorf("%d confirmation runs, want 2 (its resource alone, everything up to the flip but it)", rep.ConfirmRuns)
	}
}

// TestFlipNamedWhenNothingDiffers: nothing is seen to differ (the call
// that matters did not happen here), so the flip call is named itself,
// and the report says no call of its resource differed.
func TestFlipNamedWhenNothingDiffers(t *testing.T) {
	b := standard(t)
	g := b.graph()
	fstat := b.l("conf.fstat")
	rep, err := Locate(context.Background(), g, &fake{g: g, culprit: fstat}, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != fstat {
		t.Fatalf("got %s (%s), culprit %+v; want call %d", rep.Status, rep.Message, rep.Culprit, fstat)
	}
	if f := rep.Culprit.Flip; f == nil || f.Seq != fstat || f.FirstDiffers || rep.Culprit.Differs != render.DiffersMissing {
		t.Errorf("flip %+v, differs %q; want the fstat itself, no call seen to differ, not made here", f, rep.Culprit.Differs)
	}
}

// TestFlipOfResource: over what differs, the flip is the resource (every
// call of it); the culprit is its first call that reads it and differs.
func TestFlipOfResource(t *testing.T) {
	b := standard(t)
	g := b.graph()
	read := b.l("conf.read")
	_, run := judged(g, differingFiles(t, b, g, "ld.", "conf."), func(r Request) bool { return r.Asks(g)(read) })
	rep, err := Locate(context.Background(), g, run, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != read {
		t.Fatalf("got %s (%s), culprit %+v; want the read %d", rep.Status, rep.Message, rep.Culprit, read)
	}
	f := rep.Culprit.Flip
	if f == nil || f.Unit != render.FlipResource || f.Resource != "file /etc/fig79.conf" || f.Calls != 4 || !f.FirstDiffers {
		t.Errorf("flip %+v, want the resource file /etc/fig79.conf (4 calls), first differing at the read", f)
	}
	if got := render.CauseTitle(rep.Culprit); got != "file /etc/fig79.conf (content differs)" {
		t.Errorf("cause title %q", got)
	}
}
