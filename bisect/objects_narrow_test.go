package bisect

import (
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/render"
)

// TestObjectsNarrowedConfirmedInFull: with ObjectOptions.Narrow the runs
// of the search proper are narrowed and those that confirm the cause are
// isolated in full; when both agree, the search is made once.
func TestObjectsNarrowedConfirmedInFull(t *testing.T) {
	w := &objWorld{}
	w.noise(15)
	tmp := w.add(modeDiffers("/tmp", 0o1777, 0o755))
	f := &fakeObjects{passes: allOf(tmp)}
	rep := locateObjects(t, w, f, ObjectOptions{Narrow: true})
	if rep.Status != envobj.Located || !slices.Equal(causeNames(rep), []string{"/tmp"}) {
		t.Fatalf("status %s (%s), causes %q; want /tmp located", rep.Status, rep.Message, causeNames(rep))
	}
	narrowed := 0
	for _, s := range rep.Steps {
		if s.Role == render.RoleConfirm && s.Narrowed {
			t.Errorf("a confirming run was narrowed: %+v", s)
		}
		if s.Narrowed {
			narrowed++
		}
	}
	if narrowed != rep.Runs {
		t.Errorf("%d of the search's %d runs narrowed, want all", narrowed, rep.Runs)
	}
	if len(rep.Warnings) != 0 {
		t.Errorf("warnings %q", rep.Warnings)
	}
}

// TestObjectsNarrowedNeverWrong: where the narrowed runs fail for their
// isolation (the command, without /var/cache/app in place, writes
// where the recording did not), the narrowed search ends at /tmp and
// /var/cache/app, which the runs isolated in full do not bear out: the
// search is made again isolated in full and names /tmp alone, and says
// why.
func TestObjectsNarrowedNeverWrong(t *testing.T) {
	w := &objWorld{}
	w.noise(7)
	tmp := w.add(modeDiffers("/tmp", 0o1777, 0o755))
	cache := w.add(modeDiffers("/var/cache/app", 0o755, 0o700))
	f := &fakeObjects{passes: allOf(tmp), narrowed: allOf(tmp, cache)}
	rep := locateObjects(t, w, f, ObjectOptions{Narrow: true})
	if rep.Status != envobj.Located || !slices.Equal(causeNames(rep), []string{"/tmp"}) {
		t.Fatalf("status %s (%s), causes %q; want /tmp alone", rep.Status, rep.Message, causeNames(rep))
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "made again with every writable mount isolated") {
		t.Errorf("warnings %q", rep.Warnings)
	}
	last := rep.Steps[len(rep.Steps)-1]
	if last.Narrowed {
		t.Errorf("the last run was narrowed: %+v", last)
	}
	for _, s := range rep.Steps {
		if s.Role == render.RoleConfirm && s.Narrowed {
			t.Errorf("a confirming run was narrowed: %+v", s)
		}
	}
}

// TestObjectsNarrowedFlaky: when runs of one request disagree the
// command is flaky, whatever its isolation: a narrowed search that
// confirms nothing is not made again, and names nothing.
func TestObjectsNarrowedFlaky(t *testing.T) {
	w := &objWorld{}
	w.noise(3)
	w.add(modeDiffers("/tmp", 0o1777, 0o755))
	f := &fakeObjects{verdict: func(run int, _, _ map[int]bool) Verdict {
		if run%2 == 0 {
			return Pass
		}
		return Fail
	}}
	rep := locateObjects(t, w, f, ObjectOptions{Narrow: true, CheckRepeatable: true})
	if rep.Status == envobj.Located {
		t.Fatalf("located %q in a flaky command", causeNames(rep))
	}
	for _, w := range rep.Warnings {
		if strings.Contains(w, "made again") {
			t.Errorf("the flaky search was made again: %q", w)
		}
	}
}
