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
		abort  bool
	}{
		{"exit 0", Spec{}, trace.RunResult{ExitCode: 0}, Pass, "exit status 0", false},
		{"exit 125 skips", Spec{}, trace.RunResult{ExitCode: 125}, Skip, "exit status 125", false},
		{"exit 1", Spec{}, trace.RunResult{ExitCode: 1}, Fail, "exit status 1", false},
		{"exit 127", Spec{}, trace.RunResult{ExitCode: 127}, Fail, "exit status 127", false},
		{"exit 128", Spec{}, trace.RunResult{ExitCode: 128}, Fail, "exit status 128", true},
		{"killed", Spec{}, trace.RunResult{ExitCode: 137, Signal: 9}, Fail, "killed by SIGKILL", true},
		{"timed out", Spec{Timeout: time.Second}, trace.RunResult{TimedOut: true}, Fail, "timed out after 1s", false},
		{"daemon up", Spec{Alive: 2 * time.Second}, trace.RunResult{AliveAt: true, ExitCode: 137, Signal: 9}, Pass, "still running after 2s", false},
		{"daemon died", Spec{Alive: 2 * time.Second}, trace.RunResult{ExitCode: 1}, Fail, "exit status 1 before 2s", false},
		{"check while up", Spec{Alive: time.Second, Check: "x"}, trace.RunResult{AliveAt: true, CheckStatus: 125}, Skip, "check exited 125 while running", false},
		{"check after exit", Spec{Check: "exit 3"}, trace.RunResult{ExitCode: 0}, Fail, "check exited 3", false},
		{"check killed", Spec{Check: "kill -TERM $$"}, trace.RunResult{ExitCode: 0}, Fail, "check exited 143", true},
		{"check passes", Spec{Check: "true"}, trace.RunResult{ExitCode: 1}, Pass, "check exited 0", false},
	}
	for _, c := range cases {
		got := c.spec.Judge(ctx, &c.res, "/", nil)
		if got.Verdict != c.want || got.Detail != c.detail || got.Abortive != c.abort {
			t.Errorf("%s: %s (%s, abortive %v), want %s (%s, abortive %v)", c.name, got.Verdict, got.Detail, got.Abortive, c.want, c.detail, c.abort)
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
