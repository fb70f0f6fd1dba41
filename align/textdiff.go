package align

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
)

// IsText reports whether b reads as text: valid UTF-8 without control
// characters other than tab, newline and carriage return.
func IsText(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' {
			return false
		}
	}
	return true
}

// noNewline is the line a unified diff prints after a line that does not
// end in a newline (the last line of a or b).
const noNewline = `\ No newline at end of file`

// TextDiff returns the unified diff of the texts a and b, one string per
// line, without newlines: for each hunk a standard header "@@ -l,n +l,n @@"
// (as diff -u and patch read it), then lines starting with ' ' (the same
// in both: up to context lines around each change), '-' (in a only) or '+'
// (in b only), and `\ No newline at end of file` after a line that lacks
// one. Changes further apart than twice context are separate hunks. There
// is no "---"/"+++" file header: the caller says what a and b are. The
// lines are aligned by go-udiff's Myers diff (gopls'). At most maxLines
// lines are returned (0: no limit), then a last line "... N more lines"
// says what was cut. Equal texts give nil.
func TextDiff(a, b []byte, context, maxLines int) []string {
	before := string(a)
	u, err := udiff.ToUnifiedDiff("a", "b", before, udiff.Lines(before, string(b)), context)
	if err != nil {
		// udiff.Lines' edits always apply to before.
		panic("align: go-udiff edits inconsistent with their input: " + err.Error())
	}
	var out []string
	for _, h := range u.Hunks {
		out = append(out, hunkHeader(h))
		for _, l := range h.Lines {
			out = append(out, linePrefix(l.Kind)+strings.TrimSuffix(l.Content, "\n"))
			if !strings.HasSuffix(l.Content, "\n") {
				out = append(out, noNewline)
			}
		}
	}
	if maxLines > 0 && len(out) > maxLines {
		more := len(out) - maxLines
		out = append(out[:maxLines], "... "+strconv.Itoa(more)+" more lines")
	}
	return out
}

// linePrefix is the unified diff's first column for a kind of line.
func linePrefix(k udiff.OpKind) string {
	switch k {
	case udiff.Delete:
		return "-"
	case udiff.Insert:
		return "+"
	}
	return " "
}

// hunkHeader is h's "@@ -l,n +l,n @@" line, counted as GNU diff -u does:
// ",n" left out when n is 1, and for an empty side the line before it
// with ",0".
func hunkHeader(h *udiff.Hunk) string {
	from, to := 0, 0
	for _, l := range h.Lines {
		if l.Kind != udiff.Insert {
			from++
		}
		if l.Kind != udiff.Delete {
			to++
		}
	}
	return "@@ -" + hunkRange(h.FromLine, from) + " +" + hunkRange(h.ToLine, to) + " @@"
}

// hunkRange is one side of a hunk header: its first line and its count.
func hunkRange(first, count int) string {
	switch count {
	case 0:
		return strconv.Itoa(first-1) + ",0"
	case 1:
		return strconv.Itoa(first)
	}
	return strconv.Itoa(first) + "," + strconv.Itoa(count)
}
