package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// countCalls asks envbisect how many system calls a trace holds: first
// `show --summary --json`, then by counting the objects of `show --json`
// that name a syscall. It tolerates a show that is not written yet.
func countCalls(ctx context.Context, bin, trace string, timeout time.Duration) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var errs []error
	if out, err := exec.CommandContext(ctx, bin, "show", "--summary", "--json", trace).Output(); err == nil {
		if n, ok := summaryCalls(out); ok {
			return n, nil
		}
		errs = append(errs, errors.New("show --summary --json: no call count in its output"))
	} else {
		errs = append(errs, fmt.Errorf("show --summary --json: %v", exitDetail(err)))
	}
	if out, err := exec.CommandContext(ctx, bin, "show", "--json", trace).Output(); err == nil {
		if n := jsonCalls(out); n > 0 {
			return n, nil
		}
		errs = append(errs, errors.New("show --json: no syscall objects"))
	} else {
		errs = append(errs, fmt.Errorf("show --json: %v", exitDetail(err)))
	}
	return 0, errors.Join(errs...)
}

// exitDetail adds a failed command's last stderr line to its error.
func exitDetail(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return fmt.Sprintf("%v: %s", err, lastLine(string(ee.Stderr)))
	}
	return err.Error()
}

// totalKeys name a summary's total call count, best first.
var totalKeys = []string{"calls", "total_calls", "total", "count"}

// summaryCalls reads a summary in any of the shapes it may take: one
// object with a total, a stream of per-syscall rows ({"syscall": "read",
// "count": 12}), or an array of such rows. A total wins over a sum of rows.
func summaryCalls(out []byte) (int64, bool) {
	var total, sum int64
	haveTotal, haveRows := false, false
	var row func(v any)
	row = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				row(e)
			}
		case map[string]any:
			_, isRow := x["syscall"]
			if _, ok := x["name"]; ok {
				isRow = true
			}
			for _, k := range totalKeys {
				f, ok := x[k].(float64)
				if !ok {
					continue
				}
				if isRow {
					sum += int64(f)
					haveRows = true
				} else if !haveTotal {
					total, haveTotal = int64(f), true
				}
				break
			}
			if !isRow {
				for _, k := range []string{"syscalls", "rows", "summary"} {
					if nested, ok := x[k]; ok && !haveTotal {
						row(nested)
					}
				}
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			if err != io.EOF {
				return 0, false
			}
			break
		}
		row(v)
	}
	switch {
	case haveTotal:
		return total, true
	case haveRows:
		return sum, true
	}
	return 0, false
}

// jsonCalls counts the objects with a "syscall" key in a JSON-lines dump.
func jsonCalls(out []byte) int64 {
	var n int64
	for _, line := range bytes.Split(out, []byte("\n")) {
		var obj map[string]json.RawMessage
		if json.Unmarshal(line, &obj) != nil {
			continue
		}
		if _, ok := obj["syscall"]; ok {
			n++
		}
	}
	return n
}

// losses is what an eBPF recording lost, as `envbisect show --summary
// --json` reports it in its "lost" object (render.SummaryReport.Lost,
// trace.Losses).
type losses struct {
	Calls      int64 `json:"calls"`      // calls missing from the trace
	Chunks     int64 `json:"chunks"`     // pieces of buffers lost
	Procs      int64 `json:"procs"`      // process events lost
	Incomplete int64 `json:"incomplete"` // calls in the trace with memory partly lost
	Truncated  int64 `json:"truncated"`  // buffers cut at the capture limit (on purpose, not a loss)
}

// any reports whether anything was lost; truncation is not a loss.
func (l losses) any() bool {
	return l.Calls > 0 || l.Chunks > 0 || l.Procs > 0 || l.Incomplete > 0
}

func (l losses) plus(m losses) losses {
	return losses{l.Calls + m.Calls, l.Chunks + m.Chunks, l.Procs + m.Procs,
		l.Incomplete + m.Incomplete, l.Truncated + m.Truncated}
}

// summaryLost reads the "lost" object of a `show --summary --json`
// report. ok is false when the report has none (a ptrace trace, or a
// show that does not write it); err when the output is not one JSON
// object or "lost" is not an object of counts.
func summaryLost(out []byte) (l losses, ok bool, err error) {
	var r struct {
		Lost *json.RawMessage `json:"lost"`
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	if err := dec.Decode(&r); err != nil {
		return losses{}, false, fmt.Errorf("summary is not a JSON object: %v", err)
	}
	if r.Lost == nil || string(*r.Lost) == "null" {
		return losses{}, false, nil
	}
	if err := json.Unmarshal(*r.Lost, &l); err != nil {
		return losses{}, false, fmt.Errorf("summary's \"lost\": %v", err)
	}
	return l, true, nil
}

// showSummary runs `envbisect show --summary --json` on a trace.
func showSummary(ctx context.Context, bin, trace string, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "show", "--summary", "--json", trace).Output()
	if err != nil {
		return nil, fmt.Errorf("show --summary --json: %v", exitDetail(err))
	}
	return out, nil
}
