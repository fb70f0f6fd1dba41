package verdict

import (
	"context"
	"testing"
	"time"

	"github.com/envbisect/envbisect/trace"
)

func TestJudge(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		spec   Spec
		res    trace.RunResult
		want   Verdict
		detail string
	}{
		{"exit 0", Spec{}, trace.RunResult{ExitCode: 0}, Pass, "exit status 0"},
		{"exit 125 skips", Spec{}, trace.RunResult{ExitCode: 125}, Skip, "exit status 125"},
		{"exit 1", Spec{}, trace.RunResult{ExitCode: 1}, Fail, "exit status 1"},
		{"killed", Spec{}, trace.RunResult{ExitCode: 137, Signal: 9}, Fail, "killed by SIGKILL"},
		{"timed out", Spec{Timeout: time.Second}, trace.RunResult{TimedOut: true}, Fail, "timed out after 1s"},
		{"daemon up", Spec{Alive: 2 * time.Second}, trace.RunResult{AliveAt: true, ExitCode: 137, Signal: 9}, Pass, "still running after 2s"},
		{"daemon died", Spec{Alive: 2 * time.Second}, trace.RunResult{ExitCode: 1}, Fail, "exit status 1 before 2s"},
		{"check while up", Spec{Alive: time.Second, Check: "x"}, trace.RunResult{AliveAt: true, CheckStatus: 125}, Skip, "check exited 125 while running"},
		{"check after exit", Spec{Check: "exit 3"}, trace.RunResult{ExitCode: 0}, Fail, "check exited 3"},
		{"check passes", Spec{Check: "true"}, trace.RunResult{ExitCode: 1}, Pass, "check exited 0"},
	}
	for _, c := range cases {
		got := c.spec.Judge(ctx, &c.res, "/", nil)
		if got.Verdict != c.want || got.Detail != c.detail {
			t.Errorf("%s: %s (%s), want %s (%s)", c.name, got.Verdict, got.Detail, c.want, c.detail)
		}
	}
}

func TestSpecWatch(t *testing.T) {
	if w := (Spec{}).Watch(); !w.EndWithRoot || w.Alive != 0 || w.Check != nil {
		t.Errorf("plain spec: %+v, want the run to end with the command's process", w)
	}
	w := Spec{Alive: time.Second, Check: "curl x"}.Watch()
	if w.EndWithRoot || len(w.Check) != 3 || w.Check[2] != "curl x" {
		t.Errorf("alive with check: %+v, want the check run by sh -c while the daemon is up", w)
	}
	if err := (Spec{Alive: 2 * time.Second, Timeout: time.Second}).Validate(); err == nil {
		t.Error("a timeout before --alive passed validation")
	}
}
