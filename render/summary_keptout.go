package render

import (
	"fmt"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// KeptOut is what a recording kept out of its trace: the patterns it was
// given, the variables whose values it redacted, and the buffers it
// dropped (show --summary).
type KeptOut struct {
	ExcludeContent []string `json:"exclude_content,omitempty"` // --exclude-content globs
	ExcludeEnv     []string `json:"exclude_env,omitempty"`     // --exclude-env globs
	KeepEnv        []string `json:"keep_env,omitempty"`        // --keep-env names
	// Redacted names the variables whose values are not in the trace.
	Redacted []string `json:"redacted,omitempty"`
	// ExcludedBuffers counts the buffers without their data because they
	// were an excluded file's content or carried it; Elsewhere those of
	// them outside the file's own calls (a write, a pipe, a copy).
	ExcludedBuffers uint64 `json:"excluded_buffers"`
	Elsewhere       uint64 `json:"excluded_elsewhere"`
	// RedactedBuffers counts the buffers dropped because they carried a
	// redacted value.
	RedactedBuffers uint64 `json:"redacted_buffers"`
}

// keptOut counts a call's buffers that were kept out.
func (k *KeptOut) count(c *trace.Call) {
	for i := range c.Mem {
		m := &c.Mem[i]
		if m.Flag&trace.Excluded == 0 {
			continue
		}
		if strings.HasPrefix(m.Note, "redacted:") {
			k.RedactedBuffers++
			continue
		}
		k.ExcludedBuffers++
		if m.Note != "" {
			k.Elsewhere++
		}
	}
}

// finish takes the patterns from the header and the variables from the
// end; nil when the recording kept nothing out and was asked to keep
// nothing out.
func (k KeptOut) finish(h *trace.Header, end *trace.End) *KeptOut {
	if h != nil {
		k.ExcludeContent, k.ExcludeEnv, k.KeepEnv = h.Exclude, h.ExcludeEnv, h.KeepEnv
	}
	if end != nil {
		k.Redacted = end.Redacted
	}
	if !k.excluding() && !k.redacting() {
		return nil
	}
	return &k
}

// lines says what was kept out, for the text summary.
func (k *KeptOut) lines(line func(label, format string, args ...any)) {
	if k == nil {
		return
	}
	if k.excluding() {
		line("excluded", "the content of %s: %d buffers without their data, %d of them outside the files' own calls",
			orNone(quoteAll(k.ExcludeContent)), k.ExcludedBuffers, k.Elsewhere)
	}
	if !k.redacting() {
		return
	}
	what := "the values of " + orNone(strings.Join(k.Redacted, ", "))
	if len(k.ExcludeEnv) > 0 {
		what += "; --exclude-env " + quoteAll(k.ExcludeEnv)
	}
	if len(k.KeepEnv) > 0 {
		what += "; kept by --keep-env: " + strings.Join(k.KeepEnv, ", ")
	}
	line("redacted", "%s; %d buffers dropped that carried them", what, k.RedactedBuffers)
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("'%s'", v)
	}
	return strings.Join(q, " ")
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// excluding reports whether the recording was asked to exclude content
// or dropped a buffer that carried it.
func (k *KeptOut) excluding() bool { return len(k.ExcludeContent) > 0 || k.Elsewhere > 0 }

// redacting reports whether the recording redacted anything or was given
// patterns to.
func (k *KeptOut) redacting() bool {
	return len(k.Redacted)+len(k.ExcludeEnv)+len(k.KeepEnv) > 0 || k.RedactedBuffers > 0
}
