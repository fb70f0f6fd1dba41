package align

import (
	"bytes"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// maxLCSCells bounds the work of TextDiff's line alignment; beyond it the
// differing middle is shown as removed, then added.
const maxLCSCells = 1 << 18

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

// TextDiff returns the lines where texts a and b differ, as a unified
// diff shows them: a header "@@ line N @@" (N is the first line shown, in
// a), then lines starting with ' ' (the same in both: up to context
// lines before and after the change), '-' (in a only) or '+' (in b
// only). At most maxLines lines follow the header (0: no limit); a last
// line "... N more lines" says what was cut. Lines keep no newline.
func TextDiff(a, b []byte, context, maxLines int) []string {
	la, lb := splitLines(a), splitLines(b)
	pre := 0
	for pre < len(la) && pre < len(lb) && bytes.Equal(la[pre], lb[pre]) {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && bytes.Equal(la[len(la)-1-suf], lb[len(lb)-1-suf]) {
		suf++
	}
	if pre == len(la) && pre == len(lb) {
		return nil
	}
	ctxBefore := min(context, pre)
	var body []string
	for _, l := range la[pre-ctxBefore : pre] {
		body = append(body, " "+string(l))
	}
	body = append(body, lineEdits(la[pre:len(la)-suf], lb[pre:len(lb)-suf])...)
	for _, l := range la[len(la)-suf : len(la)-suf+min(context, suf)] {
		body = append(body, " "+string(l))
	}
	out := []string{"@@ line " + strconv.Itoa(pre-ctxBefore+1) + " @@"}
	if maxLines > 0 && len(body) > maxLines {
		more := len(body) - maxLines
		body = append(body[:maxLines], "... "+strconv.Itoa(more)+" more lines")
	}
	return append(out, body...)
}

// splitLines splits text into lines without their newlines; a final
// newline does not start another line.
func splitLines(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	lines := bytes.Split(b, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// lineEdits returns a minimal edit script from a to b (by the longest
// common subsequence of lines), or, when that is too costly, all of a
// removed and all of b added.
func lineEdits(a, b [][]byte) []string {
	var out []string
	if len(a)*len(b) > maxLCSCells {
		for _, l := range a {
			out = append(out, "-"+string(l))
		}
		for _, l := range b {
			out = append(out, "+"+string(l))
		}
		return out
	}
	// n[i][j]: LCS length of a[i:], b[j:].
	n := make([][]int, len(a)+1)
	for i := range n {
		n[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if bytes.Equal(a[i], b[j]) {
				n[i][j] = n[i+1][j+1] + 1
			} else {
				n[i][j] = max(n[i+1][j], n[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && bytes.Equal(a[i], b[j]):
			out = append(out, " "+string(a[i]))
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || n[i][j+1] > n[i+1][j]):
			out = append(out, "+"+string(b[j]))
			j++
		default:
			out = append(out, "-"+string(a[i]))
			i++
		}
	}
	return out
}
