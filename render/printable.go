package render

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Text taken from a trace (a path, an executable's name, a host name, an
// argument) is printed through Visible by every text writer of this
// package: the locate report, diff, deps and the Markdown report. A path
// may hold any byte but "/" and NUL, so a crafted trace could otherwise
// forge report lines with a newline, drive the terminal with an escape
// sequence, or reorder what is shown with a bidirectional override.
// show's call lines quote whole strings the way strace does (Quote);
// everywhere else a name stays as it is unless it holds such a
// character, which is then printed as its escape.

// Visible returns s with every unsafe character replaced by its escape:
// `\n`, `\t`, `\r`, `\x1b` for control characters, `\u202e` for the
// invisible formatting runes, `\xNN` for each byte of invalid UTF-8.
func Visible(s string) string {
	if !hasUnsafe(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if isUnsafe(s[i:], r) {
			b.WriteString(unsafeEscape(s[i:], r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hasUnsafe reports whether s holds a character Visible would escape.
func hasUnsafe(s string) bool {
	for i, r := range s {
		if isUnsafe(s[i:], r) {
			return true
		}
	}
	return false
}

// isUnsafe reports whether the rune r, at the start of s, must not reach
// a terminal as it is: C0 and C1 control characters, DEL, a byte that is
// not valid UTF-8 (a literal U+FFFD is fine), the line and paragraph
// separators, and the bidirectional controls that reorder text on screen.
func isUnsafe(s string, r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r == utf8.RuneError:
		_, n := utf8.DecodeRuneInString(s)
		return n <= 1
	case r == 0x2028 || r == 0x2029 || r == 0x200e || r == 0x200f || r == 0x061c:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// unsafeEscape is the escape of the unsafe rune r at the start of s.
func unsafeEscape(s string, r rune) string {
	switch {
	case r == '\n':
		return `\n`
	case r == '\t':
		return `\t`
	case r == '\r':
		return `\r`
	case r == utf8.RuneError || r < 0x80:
		return fmt.Sprintf(`\x%02x`, s[0])
	}
	return fmt.Sprintf(`\u%04x`, r)
}

// visibleArgs returns args with every string made visible, for a text
// writer's printf: the format's own text is envbisect's and stays as it
// is, the values are data. A value that is already safe text with line
// breaks of its own (a wrapped paragraph) is passed as a preformatted.
func visibleArgs(args []any) []any {
	for i, a := range args {
		if s, ok := a.(string); ok && hasUnsafe(s) {
			args[i] = Visible(s)
		}
	}
	return args
}

// preformatted is text a writer built itself from visible parts (a
// wrapped paragraph, a block of lines), printed as it is.
type preformatted string

// fprintf is fmt.Fprintf with its string values made visible, for the
// writers that print straight to w; a write error shows at the caller's
// flush or next checked write.
func fprintf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, format, visibleArgs(args)...)
}
