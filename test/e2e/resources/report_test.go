package resources_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/internal/reportschema"
	"github.com/envbisect/envbisect/internal/scenarios"
	"github.com/envbisect/envbisect/internal/testutil"
)

// report is the part of locate's JSON report these tests read.
type report struct {
	Status     string   `json:"status"`
	Message    string   `json:"message"`
	Runs       int      `json:"runs"`
	RepeatRuns int      `json:"repeat_runs"`
	Culprit    *culprit `json:"culprit"`
	// Causes are every cause, in the order the program met them.
	Causes []*culprit `json:"causes"`
	Space  *space     `json:"space"`
	// Mechanism and Objects say whether the object search (locate's
	// default) found the culprit, over how many candidates.
	Mechanism string `json:"mechanism"`
	Objects   *struct {
		Candidates int `json:"candidates"`
		Runs       int `json:"runs"`
	} `json:"objects"`
	Steps []struct {
		Step      int    `json:"step"`
		Prefix    uint64 `json:"prefix"`
		All       bool   `json:"all"`
		Resources int    `json:"resources"`
	} `json:"steps"`
	// raw is the whole report, for messages.
	raw string
}

// culprit is the report's culprit: a call (syscall, path, the resource's
// title, the content evidence of an open) or a start item.
type culprit struct {
	Seq      uint64     `json:"seq"`
	Syscall  string     `json:"syscall"`
	Path     string     `json:"path"`
	Resource string     `json:"resource"`
	Start    *startItem `json:"start"`
	Content  *struct {
		Syscall string `json:"syscall"`
		Path    string `json:"path"`
	} `json:"content"`
	Here struct {
		Errno string `json:"errno"`
	} `json:"here"`
}

// startItem is a start item of the report: kind "env", "umask", "cwd",
// "rlimit"; name for env and rlimit; the recorded value and this one.
type startItem struct {
	Kind string  `json:"kind"`
	Name string  `json:"name"`
	Good *string `json:"good"`
	Here *string `json:"here"`
}

// space is what locate's search ran over: "differing" (the start items
// and resources whose results differ here) or "all" (the whole
// recording, a fallback, with why).
type space struct {
	Over       string `json:"over"`
	Candidates int    `json:"candidates"`
	Resources  []struct {
		Group   int    `json:"group"`
		Title   string `json:"title"`
		First   uint64 `json:"first"`
		Differs uint64 `json:"differs"`
	} `json:"resources"`
	Fallback string `json:"fallback"`
}

// readReport reads locate's JSON report from file name in dir ($OUT).
func readReport(t *testing.T, dir, name string) report {
	t.Helper()
	var r report
	r.raw = reportschema.ReadReport(t, filepath.Join(dir, name), &r)
	return r
}

// assertSearched fails t unless r is located, by a search over the
// differing candidates, in at most ⌈log2 C⌉ + 3 runs for C candidates:
// the object search's (locate's default) or, when it fell back, the
// call-level search's over the resources that differ.
func assertSearched(t *testing.T, r report) {
	t.Helper()
	t.Logf("status %s, culprit %s, %d runs (+%d repeats), space %s", r.Status, show(r.Culprit), r.Runs, r.RepeatRuns, showSpace(r.Space))
	if r.Status != "located" {
		t.Errorf("status %q (%s), want located", r.Status, r.Message)
	}
	if r.Mechanism == "materialized" {
		// The object search ran over the objects and start items that
		// differ here, each run with whole objects in place.
		if o := r.Objects; o == nil || o.Candidates < 1 || r.Runs < 1 || r.Runs > scenarios.RunBound(o.Candidates) {
			t.Errorf("object search %+v, %d runs: want 1 to ⌈log2 C⌉+3 runs over C >= 1 candidates", o, r.Runs)
		}
		if t.Failed() {
			t.Logf("report:\n%s", indent(r.raw))
		}
		return
	}
	s := r.Space
	switch {
	case s == nil:
		t.Errorf("the report has no \"space\": want the search over the differing candidates")
	case s.Over != "differing":
		t.Errorf("space.over %q (fallback: %q), want differing", s.Over, s.Fallback)
	case s.Candidates < 1:
		t.Errorf("space.candidates %d, want at least the culprit", s.Candidates)
	case r.Runs < 1 || r.Runs > scenarios.RunBound(s.Candidates):
		t.Errorf("%d runs over %d candidates, want 1 to ⌈log2 C⌉+3 = %d", r.Runs, s.Candidates, scenarios.RunBound(s.Candidates))
	}
	// One view of each resource: every run replays whole resources (and
	// start items), never a prefix of the recorded calls, so no run shows
	// the program the recorded answer about an object and then the live one.
	for _, st := range r.Steps {
		if st.Prefix != 0 || st.All {
			t.Errorf("step %d replays the calls up to %d (all: %v): a prefix of calls, not whole resources", st.Step, st.Prefix, st.All)
		}
	}
	if t.Failed() {
		t.Logf("report:\n%s", indent(r.raw))
	}
}

// assertStartCulprit fails t unless r's culprit is the start item kind
// (and name, for env), recorded as good and here as here.
func assertStartCulprit(t *testing.T, r report, kind, name, good, here string) {
	t.Helper()
	c := r.Culprit
	if c == nil || c.Start == nil {
		t.Fatalf("culprit %s, want the start item %s %s\nreport:\n%s", show(c), kind, name, indent(r.raw))
	}
	it := c.Start
	if it.Kind != kind || it.Name != name || deref(it.Good) != good || deref(it.Here) != here {
		t.Errorf("culprit start item %s %s good %s here %s, want %s %s good %s here %s\nreport:\n%s",
			it.Kind, it.Name, deref(it.Good), deref(it.Here), kind, name, good, here, indent(r.raw))
	}
}

// show prints a culprit for a message.
func show(c *culprit) string {
	if c == nil {
		return "(none)"
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// showSpace prints a report's space for a message: over, candidates
// and the differing resources' titles.
func showSpace(s *space) string {
	if s == nil {
		return "(none)"
	}
	titles := make([]string, len(s.Resources))
	for i, res := range s.Resources {
		titles[i] = res.Title
	}
	return fmt.Sprintf("over %s, %d candidates, resources %q", s.Over, s.Candidates, titles)
}

// indent re-indents a JSON document for a message (as it is when it is
// not JSON).
func indent(raw string) string {
	var v any
	if json.Unmarshal([]byte(raw), &v) != nil {
		return raw
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// deref is *s, "(none)" for nil.
func deref(s *string) string {
	if s == nil {
		return "(none)"
	}
	return *s
}

// differs fails t when the good and the bad build gave the same artifact
// (files good.sum and bad.sum in dir): then there is nothing to locate.
func differs(t *testing.T, dir, what string) {
	t.Helper()
	if testutil.ReadText(t, dir, "good.sum") == testutil.ReadText(t, dir, "bad.sum") {
		t.Fatalf("%s: the good and the bad build gave the same artifact, nothing to locate", what)
	}
}
