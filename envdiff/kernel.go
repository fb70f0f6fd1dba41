package envdiff

import (
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// The kernel's names (envobj.KindKernel): the good run's are what the
// recorded command's first successful call that answers with them
// (systable's KernelNames: uname) got, its release and version decoded
// with systable's struct new_utsname; here's are the caller's
// (Options.KernelHere: uname(2) as a run here sees it). A command that
// never asked has no such object: nothing it did can depend on it
// (a read of /proc/sys/kernel/osrelease is a tunable, tunables.go).

// kernelAnswer keeps the first kernel-names answer of the recording.
type kernelAnswer struct {
	table *systable.Table
	good  map[string]string // nil until a call answered
	seq   uint64
}

func newKernelAnswer(table *systable.Table) *kernelAnswer { return &kernelAnswer{table: table} }

// add reads ev: the first successful KernelNames call's answer.
func (k *kernelAnswer) add(ev *trace.Event) {
	c := ev.Call
	if k.good != nil || c == nil || c.Ret != 0 || c.NoReturn {
		return
	}
	row := k.table.ByNr(int(c.Nr))
	if row == nil || !row.KernelNames || len(row.Args) == 0 {
		return
	}
	st := systable.StructOf(row.Args[0].Struct)
	for _, m := range c.Mem {
		if m.Dir != trace.Out || m.Arg != 0 || m.Flag&(trace.Excluded|trace.Fault) != 0 || len(m.Data) < st.Size {
			continue
		}
		k.good = map[string]string{}
		for _, name := range envobj.KernelFields {
			k.good[name] = st.Field(name).Str(m.Data)
		}
		k.seq = c.Seq
		return
	}
}

// differ returns the kernel names whose good value differs from here's,
// in envobj.KernelFields' order: start items of KindKernel.
func (k *kernelAnswer) differ(here map[string]string) []envobj.StartValue {
	if k.good == nil || here == nil {
		return nil
	}
	var out []envobj.StartValue
	for _, name := range envobj.KernelFields {
		good, h := k.good[name], here[name]
		if good == h || h == "" {
			continue
		}
		out = append(out, envobj.StartValue{Kind: envobj.KindKernel, Name: name, Good: &good, Here: &h})
	}
	return out
}

// isKernelNames reports whether m is the answer of a KernelNames call
// (for DataUsed).
func isKernelNames(row *systable.Syscall, m *trace.Mem) bool {
	return row.KernelNames && m.Dir == trace.Out && m.Arg == 0
}
