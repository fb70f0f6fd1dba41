package replay

import (
	"slices"
	"testing"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

func cwdRecording(cwd, pwd string) *Recording {
	return &Recording{Trace: &tracefile.Trace{Start: []trace.StartEvent{
		{Kind: trace.StartEnv, Name: "PWD", Value: pwd},
		{Kind: trace.StartCwd, Value: cwd},
	}}}
}

func envDiff(name, good, here string) align.StartDiff {
	return align.StartDiff{Kind: trace.StartEnv, Name: name,
		A: &trace.StartEvent{Kind: trace.StartEnv, Name: name, Value: good},
		B: &trace.StartEvent{Kind: trace.StartEnv, Name: name, Value: here}}
}

func kinds(ds []align.StartDiff) []string {
	var out []string
	for _, d := range ds {
		out = append(out, string(d.Kind)+" "+d.Name)
	}
	return out
}

// TestWithCwd: a differing cwd is a candidate (last, $PWD folded into
// it) with a sandbox, unapplied without one or in a container, and
// nothing when it is the same.
func TestWithCwd(t *testing.T) {
	r := cwdRecording("/src/build-a", "/src/build-a")
	items := []align.StartDiff{envDiff("PWD", "/src/build-a", "/w/bad"), envDiff("LANG", "C", "C.UTF-8")}
	for _, tc := range []struct {
		name             string
		o                CwdOptions
		items, unapplied []string
	}{
		{"sandboxed", CwdOptions{Dir: "/w/bad", Sandboxed: true}, []string{"env LANG", "cwd "}, nil},
		{"no sandbox", CwdOptions{Dir: "/w/bad"}, []string{"env PWD", "env LANG"}, []string{"cwd "}},
		{"container", CwdOptions{Join: &trace.Join{}, Sandboxed: true}, []string{"env PWD", "env LANG"}, []string{"cwd "}},
		{"same directory", CwdOptions{Dir: "/src/build-a", Sandboxed: true}, []string{"env PWD", "env LANG"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, un := r.WithCwd(slices.Clone(items), nil, tc.o)
			if !slices.Equal(kinds(got), tc.items) || !slices.Equal(kinds(un), tc.unapplied) {
				t.Errorf("items %q unapplied %q, want %q %q", kinds(got), kinds(un), tc.items, tc.unapplied)
			}
			for _, d := range append(got, un...) {
				if d.Kind == trace.StartCwd && (d.A.Value != "/src/build-a" || d.B == nil || d.B.Value == d.A.Value) {
					t.Errorf("cwd item good %+v here %+v", d.A, d.B)
				}
			}
		})
	}
	// A $PWD that did not name the recorded cwd stays a candidate.
	r = cwdRecording("/src/build-a", "/elsewhere")
	got, _ := r.WithCwd([]align.StartDiff{envDiff("PWD", "/elsewhere", "/w/bad")}, nil, CwdOptions{Dir: "/w/bad", Sandboxed: true})
	if want := []string{"env PWD", "cwd "}; !slices.Equal(kinds(got), want) {
		t.Errorf("items %q, want %q", kinds(got), want)
	}
}

// TestApplyCwd: replaying the cwd starts at the recorded path, with $PWD
// naming it when $PWD is set here.
func TestApplyCwd(t *testing.T) {
	cwd := align.StartDiff{Kind: trace.StartCwd, A: &trace.StartEvent{Kind: trace.StartCwd, Value: "/src/build-a"},
		B: &trace.StartEvent{Kind: trace.StartCwd, Value: "/w/bad"}}
	sc, err := applyStart([]string{"HOME=/root", "PWD=/w/bad"}, []align.StartDiff{cwd}, launch.SelfBound())
	if err != nil {
		t.Fatal(err)
	}
	if sc.cwd != "/src/build-a" || !slices.Equal(sc.env, []string{"HOME=/root", "PWD=/src/build-a"}) {
		t.Errorf("cwd %q env %q", sc.cwd, sc.env)
	}
	sc, err = applyStart([]string{"HOME=/root"}, []align.StartDiff{cwd}, launch.SelfBound())
	if err != nil {
		t.Fatal(err)
	}
	if sc.cwd != "/src/build-a" || !slices.Equal(sc.env, []string{"HOME=/root"}) {
		t.Errorf("without $PWD here: cwd %q env %q", sc.cwd, sc.env)
	}
}
