package render

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/envbisect/envbisect/trace"
)

// buf is the user memory captured for a buffer argument.
type buf struct {
	m      *trace.Mem // nil: nothing captured
	addr   uint64     // the argument register, printed when m is nil or faulted
	st     string     // the C type the table names, "" for plain bytes
	dec    value      // the decoded struct, nil when not decoded
	iov    bool       // the concatenated data of an iovec array
	sizeOf bool       // an undecoded struct: text shows only its size
}

// jsonBuffer is a buffer in JSON output.
type jsonBuffer struct {
	Len       uint64 `json:"len"`
	Data      string `json:"data"`
	Encoding  string `json:"encoding"` // "utf8" or "base64"
	Truncated bool   `json:"truncated"`
	Excluded  bool   `json:"excluded"`
	Fault     bool   `json:"fault,omitempty"`
	Lost      bool   `json:"lost,omitempty"` // eBPF: some bytes never reached the trace
	Iovec     bool   `json:"iovec,omitempty"`
	Struct    string `json:"struct,omitempty"`
	Decoded   any    `json:"decoded,omitempty"`
}

func (b buf) text(lim int) string {
	m := b.m
	switch {
	case m == nil || m.Flag&trace.Fault != 0:
		if m != nil && m.Addr != 0 {
			return hex(m.Addr)
		}
		return pointer(b.addr).t
	case m.Flag&trace.Excluded != 0 && m.Note != "":
		return fmt.Sprintf("<%d bytes %s>", m.Len, m.Note) // "<1458 bytes redacted: carries the value of GITHUB_TOKEN>"
	case m.Flag&trace.Excluded != 0:
		return fmt.Sprintf("<excluded %d bytes>", m.Len)
	case b.dec != nil:
		return b.dec.text(lim)
	case b.sizeOf:
		return fmt.Sprintf("{...%d bytes}", m.Len)
	}
	q, more := quote(m.Data, lim)
	switch {
	case m.Flag&trace.Lost != 0:
		q += fmt.Sprintf("...<lost in transit, %d of %d bytes arrived>", len(m.Data), m.Len)
	case m.Flag&trace.Truncated != 0:
		q += fmt.Sprintf("...<truncated, %d of %d bytes>", len(m.Data), m.Len)
	case more:
		q += "..."
	}
	if b.iov {
		return fmt.Sprintf("{iov_data=%s, total=%d}", q, m.Len)
	}
	return q
}

func (b buf) json(lim int) any {
	m := b.m
	if m == nil {
		return pointer(b.addr).j
	}
	data := m.Data
	cut := false
	if lim > 0 && len(data) > lim {
		data, cut = data[:lim], true
	}
	j := jsonBuffer{
		Len:       m.Len,
		Encoding:  "utf8",
		Truncated: cut || m.Flag&trace.Truncated != 0,
		Excluded:  m.Flag&trace.Excluded != 0,
		Fault:     m.Flag&trace.Fault != 0,
		Lost:      m.Flag&trace.Lost != 0,
		Iovec:     b.iov,
		Struct:    b.st,
	}
	if isText(data) {
		j.Data = string(data)
	} else {
		j.Data = base64.StdEncoding.EncodeToString(data)
		j.Encoding = "base64"
	}
	if b.dec != nil {
		j.Decoded = b.dec.json(lim)
	}
	return j
}

// isText reports whether data reads as text: valid UTF-8 without control
// characters other than white space and ESC (terminal colours). Binary
// data goes to JSON as base64 rather than as a string of \u0000 escapes.
func isText(data []byte) bool {
	if !utf8.Valid(data) {
		return false
	}
	for _, c := range data {
		if c < 0x20 && !strings.ContainsRune("\t\n\v\f\r\x1b", rune(c)) || c == 0x7f {
			return false
		}
	}
	return true
}

// hex prints v as 0x..., 0 as "0".
func hex(v uint64) string {
	if v == 0 {
		return "0"
	}
	return fmt.Sprintf("%#x", v)
}

// pointer is an address argument: NULL or 0x....
func pointer(v uint64) lit {
	if v == 0 {
		return null
	}
	return lit{hex(v), v}
}
