package replay

import (
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// A kernel answer no namespace gives, such as the kernel release uname
// reports, is put in place by the one part of a materialized run that
// stops the command: the run starts under the ptrace engine in an
// Answering run (ptrace.Answering), whose seccomp filter stops only the
// calls that answer with the kernel's names (systable's KernelNames:
// uname) and lets every other call run untraced, and at each of those
// the release and version fields of the answer are rewritten to the good
// run's (Spec.Uname). The host and domain names are the run's UTS
// namespace's (sandbox.Spec.Hostname), never rewritten.

// UnameFields are the fields of uname's answer a Spec.Uname may put in
// place, as trace.StartUname names them; the host and domain names come
// from the run's UTS namespace instead.
var unameFields = []string{"sysname", "release", "version", "machine"}

// validUname reports a Spec.Uname field a run cannot put in place.
func validUname(u map[string]string) error {
	for name, v := range u {
		if !slices.Contains(unameFields, name) {
			return fmt.Errorf("materialized run: uname field %q is not one a run rewrites (%v; the host name is the sandbox's)", name, unameFields)
		}
		if len(v) >= 65 {
			return fmt.Errorf("materialized run: uname %s %q does not fit uname's 65-byte field", name, v)
		}
	}
	return nil
}

// unameAnswer is the Answerer of a run that puts the good kernel names
// in place, and its Observer: it rewrites the fields of every answer of
// a KernelNames call, and counts the calls that stopped, by name.
type unameAnswer struct {
	table  *systable.Table
	fields map[string]string

	mu      sync.Mutex
	stopped map[string]int
}

func newUnameAnswer(table *systable.Table, fields map[string]string) *unameAnswer {
	return &unameAnswer{table: table, fields: fields, stopped: map[string]int{}}
}

// Answer writes the good fields into c's struct new_utsname.
func (a *unameAnswer) Answer(c *trace.Call) bool {
	row := a.table.ByNr(int(c.Nr))
	if row == nil || !row.KernelNames || len(row.Args) == 0 {
		return false
	}
	st := systable.StructOf(row.Args[0].Struct)
	changed := false
	for k := range c.Mem {
		m := &c.Mem[k]
		if m.Dir != trace.Out || m.Arg != 0 || len(m.Data) < st.Size {
			continue
		}
		for name, v := range a.fields {
			f := st.Field(name)
			b := make([]byte, f.Size) // NUL-padded, as the kernel's
			copy(b, v)
			copy(m.Data[f.Off:f.Off+f.Size], b)
			changed = true
		}
	}
	return changed
}

// Start is the launch.Observer's: not used.
func (a *unameAnswer) Start([]trace.StartEvent) {}

// Event counts the calls that stopped the command.
func (a *unameAnswer) Event(ev trace.Event) {
	if ev.Call == nil {
		return
	}
	name := fmt.Sprintf("syscall %d", ev.Call.Nr)
	if row := a.table.ByNr(int(ev.Call.Nr)); row != nil {
		name = row.Name
	}
	a.mu.Lock()
	a.stopped[name]++
	a.mu.Unlock()
}

// stops returns the calls that stopped, sorted, and how many stopped.
func (a *unameAnswer) stops() ([]string, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var names []string
	n := 0
	for name, k := range a.stopped {
		names = append(names, name)
		n += k
	}
	sort.Strings(names)
	return names, n
}

// runAnswering runs cfg's command as an Answering run that puts fields
// in place in uname's answers: traced at those calls only.
func runAnswering(cfg *launch.Config, fields map[string]string) (*trace.RunResult, *unameAnswer, error) {
	table, err := systable.Native()
	if err != nil {
		return nil, nil, err
	}
	ans := newUnameAnswer(table, fields)
	c := *cfg
	c.Table, c.Observer = table, ans
	res, err := ptrace.Run(ptrace.Config{Config: c, Answering: &ptrace.Answering{Stop: table.KernelNames(), Answer: ans}})
	return res, ans, err
}
