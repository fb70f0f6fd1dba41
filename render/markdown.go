package render

import (
	"strings"
)

// The escapes of the Markdown report (WriteMarkdown). Everything it
// prints that came from a trace or a run (paths, calls, details,
// messages) goes through one of them, so a path with "|", "<" or a
// backtick can neither break a table, open an HTML tag, nor end a code
// span early.

// mdText escapes s for GitHub-flavoured Markdown running text: the
// characters with a Markdown meaning anywhere (emphasis, code, links,
// strikethrough, a table's "|") get a backslash, and so do those with a
// meaning at a line's start (a heading, a list item, a quote) when s
// starts with them, since s may start a line or a table cell; "<", ">"
// and "&" become entities (GitHub would otherwise read a tag), and
// control characters (a newline in a path) print as their C escape
// instead of breaking the line.
func mdText(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case strings.ContainsRune("\\`*_[]|~", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case i == 0 && strings.ContainsRune("#+-=", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case (r == '.' || r == ')') && i > 0 && strings.Trim(s[:i], "0123456789") == "":
			// "1." and "1)" at a line's start are an ordered list.
			b.WriteByte('\\')
			b.WriteRune(r)
		case isUnsafe(s[i:], r):
			b.WriteString(`\\`) // a visible backslash, then the escape's letters
			b.WriteString(strings.TrimPrefix(unsafeEscape(s[i:], r), `\`))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdCode is s as an inline code span in a table cell: delimited by one
// more backtick than the longest run of backticks in s (padded with a
// space where s starts or ends with one), with "|" escaped, which GitHub
// unescapes inside a cell before it reads the span.
func mdCode(s string) string { return codeSpan(strings.ReplaceAll(Visible(s), "|", `\|`)) }

// mdCodeText is s as an inline code span outside a table, where a
// backslash before "|" would show.
func mdCodeText(s string) string { return codeSpan(Visible(s)) }

func codeSpan(s string) string {
	if s == "" {
		return "` `"
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if s[0] == '`' || s[len(s)-1] == '`' || strings.Trim(s, " ") == "" {
		s = " " + s + " "
	}
	return fence + s + fence
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	n, best := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			n = 0
			continue
		}
		n++
		best = max(best, n)
	}
	return best
}

// mdFence is lines as a fenced code block of the language lang
// ("diff", "sh", ""): the fence is longer than any run of backticks in
// the lines, so none of them can close it.
func mdFence(lang string, lines []string) string {
	n := 3
	for _, l := range lines {
		n = max(n, longestRun(l, '`')+1)
	}
	fence := strings.Repeat("`", n)
	var b strings.Builder
	b.WriteString(fence + lang + "\n")
	for _, l := range lines {
		b.WriteString(Visible(l) + "\n")
	}
	b.WriteString(fence + "\n")
	return b.String()
}

// htmlText escapes s for HTML (the <summary> of a <details> block, where
// Markdown is not read).
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(Visible(s))
}
