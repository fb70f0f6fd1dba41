package scenarios

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// TraceCall is one call of `envbisect show --json` (the fields the
// scenarios use).
type TraceCall struct {
	Seq     uint64 `json:"seq"`
	Proc    uint32 `json:"proc"`
	TID     uint32 `json:"tid"` // the logical thread
	Syscall string `json:"syscall"`
	Ret     *int64 `json:"ret"`
	Errno   string `json:"errno"`
	Path    string `json:"path"`
	Path2   string `json:"path2"`
	Unknown bool   `json:"unknown"`
}

// String is the call as a test message shows it.
func (c TraceCall) String() string {
	s := fmt.Sprintf("#%d [%d:%d] %s", c.Seq, c.Proc, c.TID, c.Syscall)
	if c.Path != "" {
		s += " " + c.Path
	}
	switch {
	case c.Ret == nil:
		s += " = ?"
	case c.Errno != "":
		s += " = " + c.Errno
	default:
		s += fmt.Sprintf(" = %d", *c.Ret)
	}
	return s
}

// Trace is a recorded trace as the scenarios look at it.
type Trace struct {
	Calls []TraceCall
	// FirstProc is the logical number of the command's own process.
	FirstProc uint32
}

// ReadTrace runs `envbisect show --json TRACE` and collects its calls.
func ReadTrace(ctx context.Context, envbisect, trace string) (*Trace, error) {
	r := Run(ctx, time.Minute, nil, envbisect, "show", "--json", trace)
	if r.Err != nil || r.Code != 0 {
		return nil, fmt.Errorf("envbisect show failed:\n%s", r)
	}
	t := &Trace{}
	sc := bufio.NewScanner(bytes.NewReader(r.Stdout))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var ev struct {
			Event string `json:"event"`
			Proc  uint32 `json:"proc"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return nil, fmt.Errorf("envbisect show --json %s: %v in line %q", trace, err, sc.Bytes())
		}
		switch ev.Event {
		case "call":
			var c TraceCall
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				return nil, fmt.Errorf("envbisect show --json %s: %v in line %q", trace, err, sc.Bytes())
			}
			t.Calls = append(t.Calls, c)
		case "exec", "spawn":
			if t.FirstProc == 0 {
				t.FirstProc = ev.Proc
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if t.FirstProc == 0 && len(t.Calls) > 0 {
		t.FirstProc = t.Calls[0].Proc
	}
	return t, nil
}

// MaxSeq is the highest sequence number in the trace: the number of
// recorded calls.
func (t *Trace) MaxSeq() uint64 {
	var n uint64
	for _, c := range t.Calls {
		n = max(n, c.Seq)
	}
	return n
}

// Find returns the first call of t that c describes.
func (c *Culprit) Find(w *Work, t *Trace) (TraceCall, bool) {
	for _, call := range t.Calls {
		if c.Matches(w, t, call) {
			return call, true
		}
	}
	return TraceCall{}, false
}

// Matches says whether call is one that c describes.
func (c *Culprit) Matches(w *Work, t *Trace, call TraceCall) bool {
	if !slices.Contains(c.Syscalls, call.Syscall) {
		return false
	}
	if c.Path != "" && call.Path != w.EnvPath(c.Path) {
		return false
	}
	if c.Child && call.Proc == t.FirstProc {
		return false
	}
	return true
}

// Describe says in words which call c matches, for messages.
func (c *Culprit) Describe(w *Work) string {
	s := "the first " + fmt.Sprint(c.Syscalls)
	if c.Path != "" {
		s += " of " + w.EnvPath(c.Path)
	}
	if c.Child {
		s += " in a child process"
	}
	return s
}

// CallsOn returns the calls of t whose path is the one rel (relative to
// WORK/env) names.
func (t *Trace) CallsOn(w *Work, rel string) []TraceCall {
	var out []TraceCall
	for _, c := range t.Calls {
		if c.Path == w.EnvPath(rel) {
			out = append(out, c)
		}
	}
	return out
}
