package record

import (
	"bytes"
	"slices"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// Redaction of environment values, by variable. A variable the envPolicy
// redacts is known by name wherever the environment is structured: the
// start events (its value replaced by its hash, trace.SecretHash) and
// every exec's environment block (its value replaced by
// trace.RedactedMarker). Each redacted value seen there is remembered,
// and any other captured buffer that carries it, as the exact entry
// "NAME=value" (whole: not the end of a longer name, and followed by the
// end of the buffer, a NUL, a newline, a blank, a quote, ";" or "&") or, for a value of minBareValue bytes or more, the value
// alone, is dropped whole (Excluded, with a Note naming the variable):
// env's output, a write of what a read of /proc/PID/environ gave, an
// argument that embeds a token. A read of /proc/PID/environ itself is
// dropped whenever a value was redacted. Nothing is replaced inside
// unrelated text, and a short value is never searched for alone.
const minBareValue = 12

type secretGuard struct {
	policy envPolicy
	salt   []byte
	// values are the redacted values seen, with their variable.
	values []secretValue
	seen   map[secretValue]bool
	names  map[string]bool
}

type secretValue struct{ name, value string }

func newSecretGuard(policy envPolicy, salt []byte) *secretGuard {
	return &secretGuard{policy: policy, salt: salt, seen: map[secretValue]bool{}, names: map[string]bool{}}
}

// remember notes a redacted value.
func (g *secretGuard) remember(name, value string) {
	g.names[name] = true
	v := secretValue{name, value}
	if value == "" || g.seen[v] {
		return
	}
	g.seen[v] = true
	g.values = append(g.values, v)
}

// redactStart replaces the values of redacted variables in the start
// events by their hash, and the value of any other event that carries a
// redacted value.
func (g *secretGuard) redactStart(evs []trace.StartEvent) []trace.StartEvent {
	out := slices.Clone(evs)
	for i := range out {
		if e := &out[i]; e.Kind == trace.StartEnv && g.policy.redacts(e.Name) {
			g.remember(e.Name, e.Value)
			g.hide(e)
		}
	}
	for i := range out {
		if e := &out[i]; e.Redacted == "" && g.carries([]byte(e.Value)) != "" {
			g.hide(e)
		}
	}
	return out
}

// hide turns e's value into its hash.
func (g *secretGuard) hide(e *trace.StartEvent) {
	h, err := trace.SecretHash(g.salt, e.Name, e.Value)
	if err != nil {
		h = "unhashable"
	}
	e.Value, e.Redacted = "", h
}

// environBlock rewrites an exec's environment block ("NAME=value\0..."):
// the value of each redacted variable becomes trace.RedactedMarker. It
// returns nil when nothing is redacted.
func (g *secretGuard) environBlock(data []byte) []byte {
	entries := bytes.Split(data, []byte{0})
	changed := false
	for i, e := range entries {
		name, value, ok := strings.Cut(string(e), "=")
		if !ok || value == trace.RedactedMarker || !g.policy.redacts(name) {
			continue
		}
		g.remember(name, value)
		entries[i] = []byte(name + "=" + trace.RedactedMarker)
		changed = true
	}
	if !changed {
		return nil
	}
	return bytes.Join(entries, []byte{0})
}

// carries returns the variable whose redacted value buf carries, or "".
func (g *secretGuard) carries(buf []byte) string {
	for _, v := range g.values {
		if len(v.value) >= minBareValue {
			if bytes.Contains(buf, []byte(v.value)) {
				return v.name
			}
		} else if holdsEntry(buf, []byte(v.name+"="+v.value)) {
			return v.name
		}
	}
	return ""
}

// holdsEntry reports whether buf holds entry ("NAME=value") as a whole:
// not inside a longer name before it, and followed by the end of buf or
// a byte that ends an entry in environ, env's output or a shell line.
func holdsEntry(buf, entry []byte) bool {
	for from := 0; ; {
		i := bytes.Index(buf[from:], entry)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(entry)
		before := i == 0 || !isNameByte(buf[i-1])
		after := end == len(buf) || bytes.IndexByte([]byte("\x00\n\r\t \"';&"), buf[end]) >= 0
		if before && after {
			return true
		}
		from = i + 1
	}
}

func isNameByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z'
}

// redactedNames returns the variables redacted so far, sorted.
func (g *secretGuard) redactedNames() []string {
	out := make([]string, 0, len(g.names))
	for n := range g.names {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
