package reportschema

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/verdict"
)

// TestCheckedIn: docs/locate.schema.json is the schema of the Go types.
func TestCheckedIn(t *testing.T) {
	want, err := Locate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../docs/locate.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/locate.schema.json is not the schema of render.LocateReport: run go run ./tools/reportschema")
	}
}

// TestValidate: reports as locate writes them follow the schema (a
// located call with its results, a start item, a run that diverged, a
// result that did not happen here); one with a member the schema does
// not have, or a member of the wrong type, does not.
func TestValidate(t *testing.T) {
	ret := int64(3)
	good := "022"
	reports := map[string]*render.LocateReport{
		"located": {SchemaVersion: render.LocateSchemaVersion, Status: render.Located, Message: "m", Command: []string{"./app"},
			Culprit: &render.Culprit{Seq: 12, Who: "[1]", Syscall: "openat", Call: "openat(...) = 3",
				Good: render.CallResult{Ret: &ret, Return: "3"}, Here: render.CallResult{Missing: true},
				DataDiff: &render.DataDiff{Buffer: "buf", Text: true, Diff: []string{"--- good"}}},
			Steps: []render.LocateStep{{Step: 1, Verdict: verdict.Fail, Detail: "exit status 1", Taken: verdict.Fail,
				Divergences: []render.Divergence{{Kind: "extra", Proc: 1, Thread: 1, RecordedSeq: 4, LiveCall: "poll", Text: "x"}}}}},
		"start item": {SchemaVersion: render.LocateSchemaVersion, Status: render.Located,
			Culprit: &render.Culprit{Start: &render.StartItem{Kind: "umask", Good: &good}}},
		"no steps": {SchemaVersion: render.LocateSchemaVersion, Status: render.NoFailure},
		"materialized": {SchemaVersion: render.LocateSchemaVersion, Status: render.Located, Mechanism: envobj.Materialized, Steps: []render.LocateStep{},
			Objects: &envobj.Result{Status: envobj.Located, Message: "m", Candidates: 2, Objects: 3, Runs: 4, ConfirmRuns: 1,
				Causes: []envobj.ResultCause{
					{Kind: "object", Name: "/tmp", Says: "/tmp is drwxr-xr-x here, drwxrwxrwt in the good run", Path: "/tmp", FirstSeq: 9,
						Objects: []envobj.Object{{Path: "/tmp", Good: envobj.State{Exists: true, Type: envobj.TypeDir, Mode: 0o1777},
							Here: envobj.State{Exists: true, Type: envobj.TypeDir, Mode: 0o755}, Differs: envobj.Aspects{envobj.AspectMode}}},
						Fix: []envobj.FixStep{{Command: "chmod 1777 /tmp"}}},
					{Kind: envobj.KindStart, Name: "env TZ", Says: "s", Start: &envobj.StartValue{Kind: "env", Name: "TZ", Good: &good}, Fix: []envobj.FixStep{{Command: "export TZ=022"}}},
				},
				Fix:      &envobj.Fix{Steps: []envobj.FixStep{{Command: "chmod 1777 /tmp"}, {Text: "restore /a", Path: "/a", Diff: []string{"--- good"}}}, Validated: true, ValidatedBy: 5},
				Unplaced: []envobj.Unplaced{{Index: 2, Path: "/dev/x", What: "w", Why: "y"}},
				Steps:    []envobj.ResultStep{{Step: 1, InPlace: "nothing", Verdict: "fail", Detail: "exit status 1", Taken: "fail"}}}},
		"call-level after objects": {SchemaVersion: render.LocateSchemaVersion, Status: render.NoFailure, Mechanism: envobj.CallLevel,
			Objects: &envobj.Result{Status: envobj.StillFails, Message: "m", Steps: []envobj.ResultStep{}}},
	}
	for name, r := range reports {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(b); err != nil {
			t.Errorf("%s: %v\n%s", name, err, b)
		}
	}
	b, _ := json.Marshal(reports["located"])
	for name, bad := range map[string]string{
		"old key":      strings.Replace(string(b), `"here":`, `"bad":`, 1),
		"wrong type":   strings.Replace(string(b), `"seq":12`, `"seq":"12"`, 1),
		"verdict":      strings.Replace(string(b), `"verdict":"fail"`, `"verdict":2`, 1),
		"errno number": strings.Replace(string(b), `"errno":null`, `"errno":2`, 1),
	} {
		if bad == string(b) {
			t.Fatalf("%s: nothing replaced in %s", name, b)
		}
		if err := Validate([]byte(bad)); err == nil {
			t.Errorf("%s: a report the schema should refuse passed:\n%s", name, bad)
		}
	}
}
