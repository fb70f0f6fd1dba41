package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The Markdown report is written over the report's JSON form as well as
// its Go fields: members of the report or of a culprit that WriteMarkdown
// does not lay out itself (a field added to LocateReport or Culprit
// later: an explanation, the flip call kept as evidence) are printed
// generically, in their JSON order, so that nothing the JSON holds is
// missing from the Markdown.

// jsonField is one member of a JSON object.
type jsonField struct {
	Key   string
	Value json.RawMessage
}

// jsonFields returns the members of the JSON object raw in their order.
func jsonFields(raw []byte) ([]jsonField, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("read report JSON: not an object")
	}
	var out []jsonField
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("read report JSON: %w", err)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("read report JSON member %v: %w", tok, err)
		}
		out = append(out, jsonField{Key: tok.(string), Value: v})
	}
	return out, nil
}

// jsonMember returns the member key of fields, or nil.
func jsonMember(fields []jsonField, key string) json.RawMessage {
	for _, f := range fields {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

// fieldLabel is a member's key as a label: "first_difference" ->
// "First difference".
func fieldLabel(key string) string {
	s := strings.ReplaceAll(key, "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// fields writes fields as a list, one item per member: a string
// is text (a multi-line one a code block), a list of strings named
// "diff" a diff block, an object or array a nested list.
func (m *mdWriter) fields(fields []jsonField, indent string) {
	for _, f := range fields {
		m.value(indent, fieldLabel(f.Key), f.Key, f.Value)
	}
}

// value writes one item "- **Label** value" at indent.
func (m *mdWriter) value(indent, label, key string, raw json.RawMessage) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		m.printf("%s- **%s** %s\n", indent, mdText(label), mdCodeText(string(raw)))
		return
	}
	head := indent + "- "
	if label != "" {
		head += "**" + mdText(label) + "** "
	}
	switch x := v.(type) {
	case string:
		if strings.Contains(x, "\n") {
			m.printf("%s\n\n%s\n", strings.TrimRight(head, " "), indentLines(mdFence("", strings.Split(strings.TrimRight(x, "\n"), "\n")), indent+"  "))
			return
		}
		m.printf("%s%s\n", head, mdText(x))
	case map[string]any:
		m.printf("%s\n", strings.TrimRight(head, " "))
		sub, err := jsonFields(raw)
		if err != nil {
			return
		}
		m.fields(sub, indent+"  ")
	case []any:
		if lines, ok := stringList(x); ok && key == "diff" {
			m.printf("%s\n\n%s\n", strings.TrimRight(head, " "), indentLines(mdFence("diff", lines), indent+"  "))
			return
		}
		if lines, ok := stringList(x); ok {
			m.printf("%s\n", strings.TrimRight(head, " "))
			for _, l := range lines {
				m.printf("%s  - %s\n", indent, mdText(l))
			}
			return
		}
		if scalars(x) {
			m.printf("%s%s\n", head, mdText(scalarText(raw)))
			return
		}
		m.printf("%s\n", strings.TrimRight(head, " "))
		var items []json.RawMessage
		json.Unmarshal(raw, &items)
		for i, it := range items {
			m.value(indent+"  ", fmt.Sprint(i+1), "", it)
		}
	case nil:
		m.printf("%s(none)\n", head)
	default: // numbers and booleans as JSON wrote them
		m.printf("%s%s\n", head, mdText(string(bytes.TrimSpace(raw))))
	}
}

// stringList returns xs as strings when every one is a string.
func stringList(xs []any) ([]string, bool) {
	out := make([]string, len(xs))
	for i, x := range xs {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// indentLines indents every line of block (a code block in a list item).
func indentLines(block, indent string) string {
	lines := strings.Split(strings.TrimRight(block, "\n"), "\n")
	for i, l := range lines {
		lines[i] = indent + l
	}
	return strings.Join(lines, "\n")
}

// scalars says whether every one of xs is a number, a boolean or null.
func scalars(xs []any) bool {
	for _, x := range xs {
		switch x.(type) {
		case string, map[string]any, []any:
			return false
		}
	}
	return true
}

// scalarText is a JSON value as text: a string as it is, an array of
// scalars joined by ", ", anything else as JSON wrote it.
func scalarText(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	switch x := v.(type) {
	case string:
		return x
	case []any:
		if scalars(x) {
			parts := make([]string, len(x))
			for i, e := range x {
				b, _ := json.Marshal(e)
				parts[i] = string(b)
			}
			return strings.Join(parts, ", ")
		}
	}
	return string(bytes.TrimSpace(raw))
}
