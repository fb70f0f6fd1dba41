package scenarios

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }

// TestAll checks the scenarios' definitions: unique names, every issue
// number covered, victims that exist, expectations that fit the status.
func TestAll(t *testing.T) {
	root := testutil.RepoRoot(t)
	names := map[string]bool{}
	issues := map[int]bool{}
	for _, s := range All() {
		if s.Name == "" || names[s.Name] {
			t.Errorf("scenario name %q empty or repeated", s.Name)
		}
		names[s.Name] = true
		issues[s.Issue] = true
		if s.Command == nil || s.Summary == "" || s.Differs == "" {
			t.Errorf("%s: Command, Summary and Differs must be set", s.Name)
		}
		for _, v := range s.Victims {
			if _, err := os.Stat(filepath.Join(root, "testdata", "victims", v)); err != nil {
				t.Errorf("%s: victim %v", s.Name, err)
			}
		}
		located := s.Want.Status == "located"
		if located != (s.Want.Culprit != nil || s.Want.Start != "") || located != (s.Want.ExitCode == 0) {
			t.Errorf("%s: status %s with culprit %v and exit code %d", s.Name, s.Want.Status, s.Want.Culprit, s.Want.ExitCode)
		}
		if c := s.Want.Culprit; c != nil && len(c.Syscalls) == 0 {
			t.Errorf("%s: the culprit names no syscall", s.Name)
		}
		if s.Want.Status != "no-failure" && s.Want.BadExit == 0 {
			t.Errorf("%s: the command must fail in the bad environment", s.Name)
		}
		if got, ok := ByName(s.Name); !ok || got.Name != s.Name {
			t.Errorf("ByName(%q) = %q, %v", s.Name, got.Name, ok)
		}
	}
	for i := 1; i <= 10; i++ {
		if !issues[i] {
			t.Errorf("no scenario for case %d of the issue", i)
		}
	}
}

func TestParseLocate(t *testing.T) {
	out := "fig79: key = value\n{not json\n" + `{
  "status": "located",
  "culprit": {"seq": 26, "proc": 1, "thread": 1, "syscall": "read",
              "good": {"ret": 10, "errno": ""}, "here": {"missing": true}},
  "runs": 6, "recorded_calls": 29,
  "steps": [{"prefix": 0, "verdict": "fail", "divergences": ["[1] diverged"]}]
}
`
	r, err := ParseLocate([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "located" || r.Culprit == nil || r.Culprit.Seq != 26 || !r.Culprit.Here.Missing ||
		*r.Culprit.Good.Ret != 10 || r.Runs != 6 || r.RecordedCalls != 29 || len(r.Steps[0].Divergences) != 1 {
		t.Errorf("parsed %+v", r)
	}
	r, err = ParseLocate([]byte(`{"status": "no-failure", "runs": 1}`))
	if err != nil || r.Keys["culprit"] || r.Status != "no-failure" {
		t.Errorf("no-failure: %+v, %v", r, err)
	}
	if _, err := ParseLocate([]byte("envbisect: unknown command\n")); err == nil {
		t.Error("ParseLocate accepted output without a JSON object")
	}
}

// TestSpaceCandidates reads "space.candidates" as a number or a list, and
// tells a report without it (the prefix search's) from one with 0.
func TestSpaceCandidates(t *testing.T) {
	for _, tc := range []struct {
		name, json string
		want       int
		ok         bool
	}{
		{"absent", `{"status": "located", "runs": 13, "repeat_runs": 2}`, 0, false},
		{"number", `{"status": "located", "space": {"candidates": 7, "kind": "resources"}}`, 7, true},
		{"zero", `{"status": "located", "space": {"candidates": 0}}`, 0, true},
		{"list", `{"status": "located", "space": {"candidates": [{"resource": "/etc/a"}, {"start": "umask"}]}}`, 2, true},
		{"no member", `{"status": "located", "space": {"kind": "calls"}}`, 0, false},
		{"neither", `{"status": "located", "space": {"candidates": "many"}}`, 0, false},
	} {
		r, err := ParseLocate([]byte(tc.json))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if n, ok := r.SpaceCandidates(); n != tc.want || ok != tc.ok {
			t.Errorf("%s: SpaceCandidates() = %d, %v; want %d, %v", tc.name, n, ok, tc.want, tc.ok)
		}
	}
	r, _ := ParseLocate([]byte(`{"status": "located", "runs": 13, "repeat_runs": 2}`))
	if r.RepeatRuns != 2 {
		t.Errorf("repeat_runs = %d, want 2", r.RepeatRuns)
	}
}

func TestParseReplay(t *testing.T) {
	out := `{"verdict":"pass","prefix":32,"all":true,"divergences":[{"kind":"extra","at_seq":28,"expected":"openat /a","got":"openat /b"}],` +
		`"calls":[{"seq":0,"action":"extra","syscall":"openat","path":"/b"}]}`
	r, err := ParseReplay([]byte("program output\n" + out + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != "pass" || !r.All || len(r.Divergences) != 1 || r.Divergences[0].Got != "openat /b" || r.Calls[0].Action != "extra" {
		t.Errorf("parsed %+v", r)
	}
}

func TestArgv(t *testing.T) {
	s, _ := ByName("port-in-use")
	w := &Work{Dir: "/w", Bin: "/w/bin", Good: "/w/good", Bad: "/w/bad", Env: "/w/env", Port: 4242,
		Victims: map[string]string{"tcpserver": "/w/bin/tcpserver"}}
	got := s.LocateArgv(w, "envbisect", "/w/t.envb", "--json")
	want := []string{"unshare", "--mount", "--propagation", "private", "--", "sh", "-c", wrapper, "sh", "/w/bad", "/w/env",
		"envbisect", "locate", "/w/t.envb", "--alive", "2s", "--json", "--", "/w/bin/tcpserver", "4242", serverLifetime}
	if !slices.Equal(got, want) {
		t.Errorf("LocateArgv:\n got %q\nwant %q", got, want)
	}
	got = s.RecordArgv(w, "envbisect", "/w/t.envb")
	if !slices.Equal(got[9:11], []string{"/w/good", "/w/env"}) || !slices.Contains(got, "record") || slices.Contains(got, "--alive") {
		t.Errorf("RecordArgv: %q", got)
	}
	if r := s.ReplayArgv(w, "envbisect", "/w/t.envb", "all"); !strings.Contains(strings.Join(r, " "), "replay /w/t.envb --prefix all --alive 2s --") {
		t.Errorf("ReplayArgv: %q", r)
	}
}

func TestEnviron(t *testing.T) {
	t.Setenv("SCENARIO_MODE", "from-the-caller")
	s, _ := ByName("env-var")
	good, bad := s.Environ(Good), s.Environ(Bad)
	if slices.Contains(good, "SCENARIO_MODE=from-the-caller") || slices.Contains(good, "SCENARIO_MODE=broken") {
		t.Errorf("good environment has SCENARIO_MODE")
	}
	if !slices.Contains(bad, "SCENARIO_MODE=broken") || slices.Contains(bad, "SCENARIO_MODE=from-the-caller") {
		t.Errorf("bad environment lacks SCENARIO_MODE=broken or has the caller's")
	}
}

func TestBadArgs(t *testing.T) {
	s, _ := ByName("divergence")
	w := &Work{Dir: "/w", Bin: "/w/bin", Good: "/w/good", Bad: "/w/bad", Env: "/w/env",
		Victims: map[string]string{"profiles": "/w/bin/profiles"}}
	good, bad := s.NativeArgv(w, Good), s.NativeArgv(w, Bad)
	if good[len(good)-1] == "alt" || bad[len(bad)-1] != "alt" {
		t.Errorf("native runs %q and %q: want the argument alt in the bad one only", good, bad)
	}
}
