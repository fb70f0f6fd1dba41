package render

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// value is one decoded argument, struct member or return value. It knows
// its text form and its JSON form; lim is Options.StringSize.
type value interface {
	text(lim int) string
	json(lim int) any
}

// lit is a value whose two forms are fixed: a number printed as AT_FDCWD,
// a flag set, an address.
type lit struct {
	t string
	j any
}

func (v lit) text(int) string { return v.t }
func (v lit) json(int) any    { return v.j }

// null is a NULL pointer.
var null = lit{"NULL", nil}

// field is one member of an object. A bare field prints its value without
// "name=" in text (strace's inet_pton(...) form) but keeps its name in JSON.
type field struct {
	name string
	v    value
	bare bool
	only view
}

// view restricts a field to one of the two forms.
type view uint8

const (
	both     view = iota
	textOnly      // strace's "..." and the like
	jsonOnly      // members text leaves out to stay short
)

// etc is the "..." that ends a struct printed in part.
var etc = field{name: "...", v: lit{"...", nil}, bare: true, only: textOnly}

// object prints as {a=1, b="x"} and as a JSON object with members in order.
type object []field

func (o object) text(lim int) string {
	var b strings.Builder
	b.WriteByte('{')
	n := 0
	for _, f := range o {
		if f.only == jsonOnly {
			continue
		}
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		if !f.bare {
			b.WriteString(f.name)
			b.WriteByte('=')
		}
		b.WriteString(f.v.text(lim))
	}
	b.WriteByte('}')
	return b.String()
}

func (o object) json(lim int) any {
	m := make(orderedObject, 0, len(o))
	for _, f := range o {
		if f.only != textOnly {
			m = append(m, orderedMember{f.name, f.v.json(lim)})
		}
	}
	return m
}

type orderedMember struct {
	name string
	v    any
}

// orderedObject is a JSON object whose members keep their order.
type orderedObject []orderedMember

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.name)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := marshalNoEscape(m.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalNoEscape is json.Marshal without HTML escaping, as the encoders
// of this package write.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// list prints as [a, b] and as a JSON array. Text shows at most
// maxItems elements, then "...".
type list []value

const maxItems = 16

func (l list) text(lim int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range l {
		if i > 0 {
			b.WriteString(", ")
		}
		if i == maxItems {
			b.WriteString("...")
			break
		}
		b.WriteString(v.text(lim))
	}
	b.WriteByte(']')
	return b.String()
}

func (l list) json(lim int) any {
	out := make([]any, len(l))
	for i, v := range l {
		out[i] = v.json(lim)
	}
	return out
}

// str is a C string: a path (never cut) or another string (cut at lim).
type str struct {
	b   []byte
	cut bool // cut at lim
}

func (s str) limit(lim int) int {
	if s.cut {
		return lim
	}
	return 0
}

func (s str) text(lim int) string {
	q, more := quote(s.b, s.limit(lim))
	if more {
		q += "..."
	}
	return q
}

// json is the string as a JSON string; one that is not valid UTF-8 (a
// path is any bytes) is an object like a buffer's, {"data": base64,
// "encoding": "base64"}, so its bytes survive.
func (s str) json(lim int) any {
	b := s.b
	if l := s.limit(lim); l > 0 && len(b) > l {
		b = b[:l]
	}
	if !utf8.Valid(b) {
		return struct {
			Data     string `json:"data"`
			Encoding string `json:"encoding"`
		}{base64.StdEncoding.EncodeToString(b), "base64"}
	}
	return string(b)
}
