package bisect

import (
	"strings"
	"testing"
)

// TestSuggestionsKeepRunFlags: every command a report suggests carries
// the flags the runs were made with (--container, --user, verdict flags),
// so that, copied as printed, it runs where locate's runs did.
func TestSuggestionsKeepRunFlags(t *testing.T) {
	flags := []string{"--container", "bad", "--user", "app", "--check", "test -s out"}
	for _, st := range []Status{NoFailure, ReplayStillFails, Inconclusive} {
		t.Run(string(st), func(t *testing.T) {
			r := &Report{Status: st, Command: []string{"app", "a b"}, TracePath: "good.envb", RunFlags: flags}
			var b strings.Builder
			if err := r.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			var n int
			for _, line := range strings.Split(b.String(), "\n") {
				if !strings.HasPrefix(strings.TrimSpace(line), "envbisect ") || strings.HasPrefix(strings.TrimSpace(line), "envbisect diff") {
					continue
				}
				n++
				if !strings.Contains(line, " --container bad --user app --check 'test -s out' ") {
					t.Errorf("suggested command without the run's flags: %q", line)
				}
			}
			if n == 0 {
				t.Errorf("no command suggested:\n%s", b.String())
			}
		})
	}
}

// TestNoFailureSaysHowItRan: the no-failure message says how the runs
// were made, so that a flaky command can be told from another
// environment.
func TestNoFailureSaysHowItRan(t *testing.T) {
	s := &search{o: Options{RanAs: "joined container bad as docker exec would, as user app"}}
	r := s.noFailure(decided{})
	if want := "passes here without replay (joined container bad as docker exec would, as user app): nothing to locate"; r.Message != want {
		t.Errorf("message %q, want %q", r.Message, want)
	}
}
