package envobj

import (
	"reflect"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// TestSignalItem: a signal item says both dispositions by name and its
// fix in a shell's words, for each way the two sides can differ.
func TestSignalItem(t *testing.T) {
	s := func(v string) *string { return &v }
	cases := []struct {
		name       string
		good, here *string
		says       string
		fix        []FixStep
	}{
		{"SIGHUP", s("ignored"), nil, "signal SIGHUP: ignored in the good run, default here",
			[]FixStep{{Command: "trap '' HUP"}, {Text: "or start the command with nohup, which ignores SIGHUP"}}},
		{"SIGPIPE", s("ignored"), nil, "signal SIGPIPE: ignored in the good run, default here",
			[]FixStep{{Command: "trap '' PIPE"}}},
		{"SIGPIPE", nil, s("ignored"), "signal SIGPIPE: default in the good run, ignored here", nil},
		{"SIGTERM", s("blocked"), nil, "signal SIGTERM: blocked in the good run, default here", nil},
		{"SIGTERM", nil, s("ignored blocked"), "signal SIGTERM: default in the good run, ignored and blocked here", nil},
	}
	for _, c := range cases {
		v := StartValue{Kind: string(trace.StartSignal), Name: c.name, Good: c.good, Here: c.here}
		if got := v.Says(); got != c.says {
			t.Errorf("Says() = %q, want %q", got, c.says)
		}
		fix := v.Fix()
		if c.fix != nil && !reflect.DeepEqual(fix, c.fix) {
			t.Errorf("%s: Fix() = %+v, want %+v", c.says, fix, c.fix)
		}
		if len(fix) == 0 {
			t.Errorf("%s: no fix", c.says)
		}
	}
	if f := (StartValue{Kind: string(trace.StartSignal), Name: "SIGPIPE", Here: s("ignored")}).Fix(); f[0].Text == "" ||
		!strings.Contains(f[0].Text, "env --default-signal=PIPE") {
		t.Errorf("fix for SIGPIPE ignored here %+v, want env --default-signal=PIPE", f)
	}
	if f := (StartValue{Kind: string(trace.StartSignal), Name: "SIGTERM", Good: s("blocked")}).Fix(); !strings.Contains(f[0].Text, "env --block-signal=TERM") {
		t.Errorf("fix for SIGTERM blocked in the good run %+v, want env --block-signal=TERM", f)
	}
}
