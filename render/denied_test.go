package render

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestDeniedCall: a call the process's seccomp filter denied says so, in
// text and in JSON.
func TestDeniedCall(t *testing.T) {
	c := call(nrKill, -1, 123, 15)
	c.Denied = true
	if got, want := CallString(testRows, c, 0), `kill(123, SIGTERM) = -1 EPERM (Operation not permitted) /* denied by seccomp */`; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	b, err := json.Marshal(NewJSONCall(testRows, c, 0))
	if err != nil || !strings.Contains(string(b), `"denied":true`) {
		t.Errorf("json %s (%v): want denied", b, err)
	}
	c.Denied = false
	if b, _ := json.Marshal(NewJSONCall(testRows, c, 0)); strings.Contains(string(b), "denied") {
		t.Errorf("json %s: a call not denied says denied", b)
	}
}
