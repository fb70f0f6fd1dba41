package render

import "fmt"

// Divergence is a place where one of locate's runs left the recording: a
// live call that did not match the recorded call its thread was at.
type Divergence struct {
	// Kind is "extra" (a call the recording does not have there; it ran
	// and the thread realigned), "diverged" (the thread could not
	// realign: it ran for real from there on) or "unmatched" (a live
	// thread or process that is no recorded one).
	Kind string `json:"kind"`
	// Proc and Thread are the live thread's logical process and thread,
	// as show numbers them ("[Proc:Thread]").
	Proc   uint32 `json:"proc"`
	Thread uint32 `json:"thread"`
	// RecordedSeq is the recorded call the thread was at, and Expected
	// that call as text; both absent when there was none (unmatched).
	RecordedSeq uint64 `json:"recorded_seq,omitempty"`
	Expected    string `json:"expected,omitempty"`
	// LiveCall is the live call that ran instead, as text.
	LiveCall string `json:"live_call"`
	// Text is the whole divergence in one line, as the text report
	// prints it.
	Text string `json:"text"`
}

// divergenceTexts returns the divergences' lines, the same line in a row
// said once with how often ("... (3 times)": a polling loop's extra
// iterations), cut after limit lines (0: none) with a last line saying
// how many more divergences there are.
func divergenceTexts(ds []Divergence, limit int) []string {
	var out []string
	for i := 0; i < len(ds); {
		j := i + 1
		for j < len(ds) && ds[j].Text == ds[i].Text {
			j++
		}
		if limit > 0 && len(out) == limit {
			n := uint64(len(ds) - i)
			out = append(out, fmt.Sprintf("... %d more %s", n, plural(n, "divergence", "divergences")))
			break
		}
		line := ds[i].Text
		if j-i > 1 {
			line += fmt.Sprintf(" (%d times)", j-i)
		}
		out = append(out, line)
		i = j
	}
	return out
}
