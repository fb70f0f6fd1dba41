package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// LocateReport is the object `envbisect locate --json` prints.
type LocateReport struct {
	Status  string         `json:"status"` // located, no-failure, replay-still-fails, inconclusive, not-repeatable, unconfirmed
	Message string         `json:"message"`
	Culprit *ReportCulprit `json:"culprit"`
	// Mechanism is how the culprit was found: "materialized" (the object
	// search, untraced runs that replay nothing), "call-level".
	Mechanism   string          `json:"mechanism"`
	Group       json.RawMessage `json:"group"`
	Runs        int             `json:"runs"`
	RepeatRuns  int             `json:"repeat_runs"`  // the repeatability checks, on top of Runs
	ConfirmRuns int             `json:"confirm_runs"` // the runs confirming the causes, on top of Runs
	CauseRuns   int             `json:"cause_runs"`   // the runs searching for further causes, on top of Runs
	// Causes are every cause located (the first is Culprit).
	Causes          []*ReportCulprit `json:"causes"`
	RecordedCalls   int              `json:"recorded_calls"`
	ReplayableCalls int              `json:"replayable_calls"`
	Steps           []LocateStep     `json:"steps"`
	Seconds         float64          `json:"seconds"`
	// Space describes what the search ran over, when locate says so (a
	// search over differing resources); see SpaceCandidates.
	Space json.RawMessage `json:"space"`
	// Unapplied are the start items that differ here and no run could
	// give the good value of, with why.
	Unapplied []UnappliedItem `json:"unapplied"`

	// Keys are the top-level keys present in the object (to tell an
	// absent "culprit" from a null one).
	Keys map[string]bool `json:"-"`
}

// SpaceCandidates returns the number of candidates the search ran over,
// "space.candidates" in the report: a number, or a list whose length is
// the number. ok is false when the report has no such member (a locate
// that searches over recorded call prefixes) or it is neither.
func (r *LocateReport) SpaceCandidates() (n int, ok bool) {
	if len(r.Space) == 0 {
		return 0, false
	}
	var space struct {
		Candidates json.RawMessage `json:"candidates"`
	}
	if json.Unmarshal(r.Space, &space) != nil || len(space.Candidates) == 0 {
		return 0, false
	}
	if json.Unmarshal(space.Candidates, &n) == nil {
		return n, true
	}
	var list []json.RawMessage
	if json.Unmarshal(space.Candidates, &list) == nil {
		return len(list), true
	}
	return 0, false
}

// UnappliedItem is a start item of LocateReport.Unapplied.
type UnappliedItem struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Why    string `json:"why"`
	Remedy string `json:"remedy"`
}

// ReportCulprit is the culprit of a LocateReport.
type ReportCulprit struct {
	Seq      uint64          `json:"seq"`
	Proc     uint32          `json:"proc"`
	Thread   uint32          `json:"thread"`
	Exe      string          `json:"exe"`
	Syscall  string          `json:"syscall"`
	Call     string          `json:"call"`
	Path     string          `json:"path"`
	Resource string          `json:"resource"`
	Good     CallResult      `json:"good"`
	Here     CallResult      `json:"here"`
	DataDiff json.RawMessage `json:"data_diff"`
	// Content is, for the open of a file whose content differs, the
	// later call that shows the difference.
	Content *ReportCulprit `json:"content"`
	// Start is set when the culprit is a start item.
	Start *StartCulprit `json:"start"`
}

// StartCulprit is a start item named as the culprit.
type StartCulprit struct {
	Kind string  `json:"kind"`
	Name string  `json:"name"`
	Good *string `json:"good"`
	Here *string `json:"here"`
	// Docker says it as a docker run flag ("--cap-drop CHOWN"), with
	// --container.
	Docker string `json:"docker"`
}

// CallResult is a culprit's result in one environment.
type CallResult struct {
	Ret     *int64 `json:"ret"`
	Errno   string `json:"errno"`
	Missing bool   `json:"missing"` // the live run never made the call
}

// LocateStep is one run of the search.
type LocateStep struct {
	Prefix      int64             `json:"prefix"`
	All         bool              `json:"all"`
	Index       int               `json:"index"`
	Verdict     string            `json:"verdict"`
	Detail      string            `json:"detail"`
	Seconds     float64           `json:"seconds"`
	Divergences []json.RawMessage `json:"divergences"` // strings by the contract; anything is counted
	Round       int               `json:"round"`       // the round of a parallel search (--jobs > 1); 0: sequential
}

// ReplayReport is the object `envbisect replay --json` prints.
type ReplayReport struct {
	Verdict     string             `json:"verdict"` // pass, fail, skip
	Detail      string             `json:"detail"`
	Prefix      int64              `json:"prefix"`
	All         bool               `json:"all"`
	Seconds     float64            `json:"seconds"`
	Replayed    int                `json:"replayed"`
	Executed    int                `json:"executed"`
	Overwritten int                `json:"overwritten"`
	Extra       int                `json:"extra"`
	Unmatched   int                `json:"unmatched"`
	Divergences []ReplayDivergence `json:"divergences"`
	Calls       []ReplayCall       `json:"calls"`

	Keys map[string]bool `json:"-"`
}

// ReplayDivergence is a divergence a replay run reports.
type ReplayDivergence struct {
	Proc     uint32 `json:"proc"`
	Thread   uint32 `json:"thread"`
	Kind     string `json:"kind"` // extra, diverged
	AtSeq    uint64 `json:"at_seq"`
	Expected string `json:"expected"`
	Got      string `json:"got"`
}

// ReplayCall is what a replay run did with one call.
type ReplayCall struct {
	Seq     uint64 `json:"seq"`    // the recorded call; 0 for an extra live call
	Action  string `json:"action"` // replay, execute, execute+overwrite, extra
	Syscall string `json:"syscall"`
	Path    string `json:"path"`
}

// ParseLocate finds locate's JSON object in its standard output.
func ParseLocate(stdout []byte) (*LocateReport, error) {
	var r LocateReport
	keys, err := decodeLast(stdout, "status", &r)
	if err != nil {
		return nil, fmt.Errorf("locate --json: %w", err)
	}
	r.Keys = keys
	return &r, nil
}

// ParseReplay finds replay's JSON object in its standard output.
func ParseReplay(stdout []byte) (*ReplayReport, error) {
	var r ReplayReport
	keys, err := decodeLast(stdout, "verdict", &r)
	if err != nil {
		return nil, fmt.Errorf("replay --json: %w", err)
	}
	r.Keys = keys
	return &r, nil
}

// decodeLast decodes into v the last JSON object in out that starts a line
// and has the member key. The command's own output may share stdout with
// envbisect's object; the object is the whole stdout when it does not.
func decodeLast(out []byte, key string, v any) (map[string]bool, error) {
	for end := len(out); end >= 0; {
		i := bytes.LastIndexByte(out[:end], '{')
		if i < 0 {
			break
		}
		end = i
		if i > 0 && out[i-1] != '\n' {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.NewDecoder(bytes.NewReader(out[i:])).Decode(&m); err != nil {
			continue
		}
		if _, ok := m[key]; !ok {
			continue
		}
		b, _ := json.Marshal(m)
		if err := json.Unmarshal(b, v); err != nil {
			return nil, err
		}
		keys := make(map[string]bool, len(m))
		for k := range m {
			keys[k] = true
		}
		return keys, nil
	}
	return nil, errors.New("no JSON object with a \"" + key + "\" member on stdout")
}

// String shows the result as "= 10", "= -1 ENOENT" or "missing".
func (c CallResult) String() string {
	switch {
	case c.Missing:
		return "missing"
	case c.Ret == nil && c.Errno == "":
		return "(no result)"
	case c.Ret == nil:
		return "= ? " + c.Errno
	case c.Errno != "":
		return fmt.Sprintf("= %d %s", *c.Ret, c.Errno)
	}
	return fmt.Sprintf("= %d", *c.Ret)
}
