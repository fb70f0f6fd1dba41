package bisect

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
)

// The object search's tests give it objects built here and a fake
// runner: a predicate over what a run puts in place.

// objWorld is a set of objects that differ here and start items, by
// name for the checks.
type objWorld struct {
	objs  []envobj.Object
	items []StartItem
}

// add appends o and returns its index.
func (w *objWorld) add(o envobj.Object) int {
	if o.FirstSeq == 0 {
		o.FirstSeq = uint64(10 * (len(w.objs) + 1))
	}
	w.objs = append(w.objs, o)
	return len(w.objs) - 1
}

// index returns the index of the object at path.
func (w *objWorld) index(t *testing.T, path string) int {
	t.Helper()
	for i, o := range w.objs {
		if o.Path == path {
			return i
		}
	}
	t.Fatalf("no object %s", path)
	return -1
}

var stat = envobj.Aspects{envobj.AspectType, envobj.AspectMode, envobj.AspectOwner, envobj.AspectMtime}

// contentDiffers is a file whose content differs (stored in the trace).
func contentDiffers(path string) envobj.Object {
	return envobj.Object{Path: path, Stored: true, File: 1,
		Good:    envobj.State{Exists: true, Type: envobj.TypeFile, Mode: 0o644, Size: 120, Known: stat},
		Here:    envobj.State{Exists: true, Type: envobj.TypeFile, Mode: 0o644, Size: 98, Known: stat},
		Differs: envobj.Aspects{envobj.AspectContent}}
}

// missingFile is a file of the good run missing here.
func missingFile(path string, pkg *trace.Package) envobj.Object {
	return envobj.Object{Path: path, Stored: true, File: 1, Package: pkg,
		Good:    envobj.State{Exists: true, Type: envobj.TypeFile, Mode: 0o644, Size: 100, Known: stat},
		Differs: envobj.Aspects{envobj.AspectExists}}
}

// onlyHere is a file that exists here and not in the good run.
func onlyHere(path string) envobj.Object {
	return envobj.Object{Path: path, Here: envobj.State{Exists: true, Type: envobj.TypeFile, Mode: 0o644, Known: stat},
		Differs: envobj.Aspects{envobj.AspectExists}}
}

// modeDiffers is a directory whose mode differs.
func modeDiffers(path string, good, here uint32) envobj.Object {
	return envobj.Object{Path: path,
		Good:    envobj.State{Exists: true, Type: envobj.TypeDir, Mode: good, Known: stat},
		Here:    envobj.State{Exists: true, Type: envobj.TypeDir, Mode: here, Known: stat},
		Differs: envobj.Aspects{envobj.AspectMode}}
}

// mtimeOnly is a file whose modification time alone differs.
func mtimeOnly(path string) envobj.Object {
	return envobj.Object{Path: path,
		Good:    envobj.State{Exists: true, Type: envobj.TypeFile, Mode: 0o644, MtimeNS: 1_700_000_000_000_000_000, Known: stat},
		Here:    envobj.State{Exists: true, Type: envobj.TypeFile, Mode: 0o644, MtimeNS: 1_710_000_000_000_000_000, Known: stat},
		Differs: envobj.Aspects{envobj.AspectMtime}}
}

// noise adds n objects that differ here and make no difference, in
// directories of their own.
func (w *objWorld) noise(n int) {
	for range n {
		w.add(contentDiffers(fmt.Sprintf("/opt/noise%d/etc/n.conf", len(w.objs))))
	}
}

// fakeObjects is a fake ObjectRunner: passes decides a run from the
// objects and start items it puts in place; it counts the runs of each
// request.
type fakeObjects struct {
	passes func(objs, start map[int]bool) bool
	// verdict, if not nil, decides instead of passes, knowing the run's
	// number (for flaky runners).
	verdict func(run int, objs, start map[int]bool) Verdict
	// narrowed, if not nil, decides a narrowed run
	// (ObjectRequest.Narrow) instead of passes.
	narrowed func(objs, start map[int]bool) bool
	runs     int
	byKey    map[string]int
	reqs     []ObjectRequest
}

func (f *fakeObjects) RunObjects(_ context.Context, r ObjectRequest) (ObjectOutcome, error) {
	f.runs++
	if f.byKey == nil {
		f.byKey = map[string]int{}
	}
	f.byKey[r.key()]++
	f.reqs = append(f.reqs, r)
	if !slices.IsSorted(r.Objects) || !slices.IsSorted(r.Start) {
		return ObjectOutcome{}, fmt.Errorf("request not sorted: %v", r)
	}
	in, st := map[int]bool{}, map[int]bool{}
	for _, i := range r.Objects {
		in[i] = true
	}
	for _, i := range r.Start {
		st[i] = true
	}
	v := Fail
	switch {
	case f.verdict != nil:
		v = f.verdict(f.runs, in, st)
	case r.Narrow && f.narrowed != nil:
		if f.narrowed(in, st) {
			v = Pass
		}
	case f.passes(in, st):
		v = Pass
	}
	exit := 1
	if v == Pass {
		exit = 0
	}
	return ObjectOutcome{Verdict: v, Detail: fmt.Sprintf("exit status %d", exit), Exit: &exit, Seconds: 0.1}, nil
}

// allOf passes when every object of idx is in place.
func allOf(idx ...int) func(objs, start map[int]bool) bool {
	return func(objs, _ map[int]bool) bool {
		for _, i := range idx {
			if !objs[i] {
				return false
			}
		}
		return true
	}
}

// locateObjects runs the search over w with f and fails the test on an
// error.
func locateObjects(t *testing.T, w *objWorld, f *fakeObjects, o ObjectOptions) *ObjectReport {
	t.Helper()
	rep, err := LocateObjects(context.Background(), w.objs, w.items, f, o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Runs+rep.ConfirmRuns != f.runs {
		t.Errorf("report counts %d+%d runs, the runner made %d", rep.Runs, rep.ConfirmRuns, f.runs)
	}
	if len(rep.Steps) != f.runs {
		t.Errorf("%d steps for %d runs", len(rep.Steps), f.runs)
	}
	return rep
}

// causeNames are the names of the report's causes.
func causeNames(rep *ObjectReport) []string {
	var out []string
	for _, c := range rep.Causes {
		out = append(out, c.Name)
	}
	return out
}

// fixLines are the fix's steps as lines.
func fixLines(f *envobj.Fix) []string {
	if f == nil {
		return nil
	}
	var out []string
	for _, s := range f.Steps {
		out = append(out, s.String())
	}
	return out
}

// noRepeatedRequests fails when the runner made a request twice, other
// than the confirmation of the causes alone (made afresh).
func noRepeatedRequests(t *testing.T, f *fakeObjects, rep *ObjectReport) {
	t.Helper()
	for k, n := range f.byKey {
		if n > 2 || (n == 2 && rep.Fix == nil) {
			t.Errorf("request %s made %d times", k, n)
		}
	}
}
