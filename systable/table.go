package systable

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
)

// Table is the syscall table of one architecture: rows indexed by number
// and by name, plus the sizes of the ioctl requests whose memory is
// captured. A Table is built once and never changed.
type Table struct {
	Arch   string
	rows   []*Syscall // indexed by number; nil for numbers with no row
	byName map[string]*Syscall
	ioctls map[uint64]Ioctl
	msg    MsgLayout
}

// Ioctl describes one ioctl request whose third argument points to memory
// of a fixed size.
type Ioctl struct {
	Name string
	Size uint32
	Dir  Kind // InBuf or OutBuf
}

// ErrNoTable is the error (wrapped) of New for an architecture that has
// no table.
var ErrNoTable = errors.New("no syscall table for this architecture")

// New returns the table for arch, a GOARCH name as a trace header's Arch
// field gives it ("amd64"). Every table builds on every host: a tool that
// reads a trace (show, diff, deps) passes the trace's architecture, not
// the one it runs on.
func New(arch string) (*Table, error) {
	switch arch {
	case "amd64":
		return build(arch, amd64Rows(), amd64Ioctls(), amd64Msg())
	case "":
		return nil, fmt.Errorf("%w: none named (a trace header without an architecture?)", ErrNoTable)
	default:
		return nil, fmt.Errorf("%w: %q is not supported (this envbisect has tables for: amd64)", ErrNoTable, arch)
	}
}

// Native returns the table for the architecture this binary runs on: the
// one that recording and replay, which trace live processes, use.
func Native() (*Table, error) { return New(runtime.GOARCH) }

func build(arch string, rows []Syscall, ioctls []IoctlRow, msg MsgLayout) (*Table, error) {
	t := &Table{Arch: arch, byName: make(map[string]*Syscall, len(rows)), ioctls: make(map[uint64]Ioctl, len(ioctls)), msg: msg}
	maxNr := 0
	for i := range rows {
		if rows[i].Nr > maxNr {
			maxNr = rows[i].Nr
		}
	}
	t.rows = make([]*Syscall, maxNr+1)
	for i := range rows {
		r := &rows[i]
		if r.Nr < 0 {
			return nil, fmt.Errorf("syscall table %s: %s has negative number %d", arch, r.Name, r.Nr)
		}
		if t.rows[r.Nr] != nil {
			return nil, fmt.Errorf("syscall table %s: number %d given to both %s and %s", arch, r.Nr, t.rows[r.Nr].Name, r.Name)
		}
		if _, dup := t.byName[r.Name]; dup {
			return nil, fmt.Errorf("syscall table %s: %s listed twice", arch, r.Name)
		}
		if r.Policy == 0 {
			r.Policy = Replayable
		}
		t.rows[r.Nr] = r
		t.byName[r.Name] = r
	}
	for _, io := range ioctls {
		t.ioctls[io.Req] = Ioctl{Name: io.Name, Size: io.Size, Dir: io.Dir}
	}
	return t, nil
}

// IoctlRow is an ioctl request as written in the per-architecture files.
type IoctlRow struct {
	Req  uint64
	Name string
	Size uint32
	Dir  Kind
}

// ByNr returns the row for nr. For numbers the table does not list it
// returns a row marked Unknown named "syscall_<nr>", so callers never see nil.
func (t *Table) ByNr(nr int) *Syscall {
	if nr >= 0 && nr < len(t.rows) && t.rows[nr] != nil {
		return t.rows[nr]
	}
	return &Syscall{Nr: nr, Name: fmt.Sprintf("syscall_%d", nr), Unknown: true, Policy: AlwaysExecute}
}

// ByName returns the row called name.
func (t *Table) ByName(name string) (*Syscall, bool) {
	r, ok := t.byName[name]
	return r, ok
}

// All returns every row in number order.
func (t *Table) All() []*Syscall {
	out := make([]*Syscall, 0, len(t.byName))
	for _, r := range t.rows {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

// NoStop returns the names of the calls that never stop the tracee,
// sorted.
func (t *Table) NoStop() []string {
	var out []string
	for _, r := range t.byName {
		if r.NoStop {
			out = append(out, r.Name)
		}
	}
	sort.Strings(out)
	return out
}

// KernelNames returns the names of the calls that answer with the
// kernel's names (Syscall.KernelNames), sorted: the only calls a run
// that puts the good kernel release in place stops.
func (t *Table) KernelNames() []string {
	var out []string
	for _, r := range t.byName {
		if r.KernelNames {
			out = append(out, r.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Ioctl returns what the table knows of ioctl request req.
func (t *Table) Ioctl(req uint64) (Ioctl, bool) {
	io, ok := t.ioctls[uint64(uint32(req))] // the request is an unsigned int
	return io, ok
}
