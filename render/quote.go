package render

import "strings"

// Quote returns b as a C string literal the way strace prints it:
// printable ASCII as is, \" \\ \t \n \v \f \r, every other byte as \xNN.
// With limit > 0 only the first limit bytes are shown and "..." follows
// the closing quote when b is longer.
func Quote(b []byte, limit int) string {
	q, more := quote(b, limit)
	if more {
		q += "..."
	}
	return q
}

// quote is Quote without the trailing "...": it reports whether b was cut.
func quote(b []byte, limit int) (string, bool) {
	more := false
	if limit > 0 && len(b) > limit {
		b, more = b[:limit], true
	}
	const hex = "0123456789abcdef"
	var s strings.Builder
	s.Grow(len(b) + 2)
	s.WriteByte('"')
	for _, c := range b {
		switch c {
		case '"':
			s.WriteString(`\"`)
		case '\\':
			s.WriteString(`\\`)
		case '\t':
			s.WriteString(`\t`)
		case '\n':
			s.WriteString(`\n`)
		case '\v':
			s.WriteString(`\v`)
		case '\f':
			s.WriteString(`\f`)
		case '\r':
			s.WriteString(`\r`)
		default:
			if c >= 0x20 && c < 0x7f {
				s.WriteByte(c)
			} else {
				s.WriteString(`\x`)
				s.WriteByte(hex[c>>4])
				s.WriteByte(hex[c&15])
			}
		}
	}
	s.WriteByte('"')
	return s.String(), more
}

// quoteIfNeeded returns s as is when it is a plain word, quoted otherwise:
// for values on comment lines, which must stay one line and unambiguous.
func quoteIfNeeded(s string) string {
	if s == "" {
		return `""`
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '\\' {
			return Quote([]byte(s), 0)
		}
	}
	return s
}

// cstring returns b up to its first NUL, the C string it holds.
func cstring(b []byte) []byte {
	for i, c := range b {
		if c == 0 {
			return b[:i]
		}
	}
	return b
}

// ShellLine returns argv as a shell would need it typed, for messages
// that name a command.
func ShellLine(argv []string) string { return shellJoin(argv) }
