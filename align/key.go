package align

import (
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Rows is what align reads of a syscall table; *systable.Table has it.
type Rows interface {
	ByNr(nr int) *systable.Syscall
}

// Key is what two calls must share to be the same call of two runs: the
// syscall and the resource it acts on. Keys are comparable values, so
// sequences of them can be aligned with ==.
type Key struct {
	Nr uint32
	// Res is the resource: the call's path (and second path), or what its
	// fd refers to, normalised (see Keyer), followed by the values of its
	// enum and signal arguments ("|F_GETFL"), which say which operation a
	// multiplexing call performs.
	Res string
}

// Keyer computes the keys of one trace's calls.
type Keyer struct {
	rows Rows
	// from and to rewrite a path prefix: the other trace's working
	// directory as this trace's, so that files named relative to two
	// different checkouts of a project compare equal.
	from, to string
	// names maps a live name a generated-name call created to the name
	// its recorded counterpart created (MapName): the live run's keyer
	// only, set as calls are matched.
	names map[string]string
}

// NewKeyer returns a Keyer for a trace whose calls are decoded with rows.
// When cwd and asCwd are both set and differ, paths under cwd (this
// trace's starting directory) are keyed as if they were under asCwd (the
// other trace's). When one of them holds the other (recorded in /tmp, run
// from /tmp/build) nothing is rewritten: a path under the inner one is
// under the outer one as well, and the two runs named it alike.
func NewKeyer(rows Rows, cwd, asCwd string) *Keyer {
	k := &Keyer{rows: rows}
	from, to := strings.TrimSuffix(cwd, "/"), strings.TrimSuffix(asCwd, "/")
	if from != "" && to != "" && from != to && !within(from, to) && !within(to, from) {
		k.from, k.to = from, to
	}
	return k
}

// within says whether path is under dir (both without a trailing slash).
func within(path, dir string) bool {
	return strings.HasPrefix(path, dir+"/")
}

// Key returns the key of c.
func (k *Keyer) Key(c *trace.Call) Key {
	row := k.rows.ByNr(int(c.Nr))
	var b strings.Builder
	b.WriteString(k.Path(c.Path))
	if c.Path2 != "" {
		b.WriteByte(0)
		b.WriteString(k.Path(c.Path2))
	}
	for i, a := range row.Args {
		if a.Kind != systable.Enum && a.Kind != systable.Signal {
			continue
		}
		v := c.Args[i]
		if a.Int32 {
			v = uint64(uint32(v))
		}
		b.WriteByte('|')
		b.WriteString(strconv.FormatUint(v, 16))
	}
	return Key{Nr: c.Nr, Res: b.String()}
}

// Keys returns the keys of calls.
func (k *Keyer) Keys(calls []*trace.Call) []Key {
	out := make([]Key, len(calls))
	for i, c := range calls {
		out[i] = k.Key(c)
	}
	return out
}

// Path normalises a path or fd description for comparison across runs:
// the number in an anonymous object's name ("pipe:[123]",
// "socket:[456]") is dropped, as are the pids and tids in /proc paths
// (/proc/1234/task/1235/comm becomes /proc/<pid>/task/<tid>/comm), and
// a name MapName maps is keyed as the recorded one, and otherwise the
// working-directory prefix is rewritten as NewKeyer says.
func (k *Keyer) Path(p string) string {
	if p == "" {
		return p
	}
	if i := strings.Index(p, ":["); i > 0 && strings.HasSuffix(p, "]") {
		if _, err := strconv.ParseUint(p[i+2:len(p)-1], 10, 64); err == nil {
			return p[:i+1] + "[]"
		}
	}
	if strings.HasPrefix(p, "/proc/") {
		p = procPath(p)
	}
	if to, ok := k.mapped(p); ok {
		return to
	}
	if k.from != "" && (p == k.from || strings.HasPrefix(p, k.from+"/")) {
		p = k.to + p[len(k.from):]
	}
	return p
}

// procPath replaces the numbers naming processes and threads in a /proc
// path with <pid> and <tid>.
func procPath(p string) string {
	parts := strings.Split(p, "/") // "", "proc", ...
	changed := false
	for i := 2; i < len(parts); i++ {
		if !isDigits(parts[i]) {
			continue
		}
		switch {
		case i == 2:
			parts[i], changed = "<pid>", true
		case parts[i-1] == "task":
			parts[i], changed = "<tid>", true
		}
	}
	if !changed {
		return p
	}
	return strings.Join(parts, "/")
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ResultKey is Key extended with the call's outcome: whether it returned,
// its errno, and its return value where that is neither an address, an
// fd number, a pid nor a time. Diff aligns by result keys first, so that
// an extra iteration of a loop is told apart from the last one (a poll
// that returns 0 from the one that returns 1), and pairs calls whose keys
// alone agree afterwards (PairGaps). Live calls, matched before they run,
// have only keys.
func (k *Keyer) ResultKey(c *trace.Call) Key {
	key := k.Key(c)
	row := k.rows.ByNr(int(c.Nr))
	switch {
	case c.NoReturn:
		key.Res += "=?"
	case c.Errno() != 0:
		key.Res += "=E" + strconv.Itoa(c.Errno())
	case row.Ret == systable.FD || row.Ret == systable.Hex || row.Ret == systable.PID || row.VolatileRet:
		key.Res += "=ok"
	default:
		key.Res += "=" + strconv.FormatInt(c.Ret, 10)
	}
	return key
}

// ResultKeys returns the result keys of calls.
func (k *Keyer) ResultKeys(calls []*trace.Call) []Key {
	out := make([]Key, len(calls))
	for i, c := range calls {
		out[i] = k.ResultKey(c)
	}
	return out
}
