package render

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

// divergenceTexts returns the divergences' lines.
func divergenceTexts(ds []Divergence) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Text
	}
	return out
}
