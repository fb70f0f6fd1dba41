package tracetest

import (
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Mem attaches a captured buffer to argument arg.
func Mem(arg uint8, part trace.Part, dir trace.Dir, data []byte) Opt {
	return func(_ *Builder, _ *systable.Syscall, c *trace.Call) {
		c.Mem = append(c.Mem, trace.Mem{Arg: arg, Part: part, Dir: dir, Len: uint64(len(data)), Data: data})
	}
}

// Named gives the call's next path argument: text as the program wrote
// it, abs as the recorder resolved it (Call.Path, then Call.Path2).
func Named(text, abs string) Opt {
	return func(b *Builder, row *systable.Syscall, c *trace.Call) {
		k := 0
		for i, a := range row.Args {
			if a.Kind != systable.Path {
				continue
			}
			if c.MemOf(uint8(i), trace.PartWhole) != nil {
				k++
				continue
			}
			c.Args[i] = 0x10000 + uint64(i)*0x100
			c.Mem = append(c.Mem, trace.Mem{Arg: uint8(i), Dir: trace.In, Len: uint64(len(text) + 1), Data: []byte(text + "\x00")})
			if k == 0 {
				c.Path = abs
			} else {
				c.Path2 = abs
			}
			return
		}
		b.T.Fatalf("%s has no path argument left for %q", row.Name, text)
	}
}

// Path sets Call.Path as the recorder does for fd calls.
func Path(p string) Opt {
	return func(_ *Builder, _ *systable.Syscall, c *trace.Call) { c.Path = p }
}

// On makes thread th (of the call's process) the caller.
func On(th uint32) Opt { return func(_ *Builder, _ *systable.Syscall, c *trace.Call) { c.Thread = th } }

// NoReturn marks a call that never returned.
func NoReturn() Opt {
	return func(_ *Builder, _ *systable.Syscall, c *trace.Call) { c.NoReturn = true }
}

// Mems attaches captured memory as the recorder wrote it (Len may say
// more than Data holds).
func Mems(ms ...trace.Mem) Opt {
	return func(_ *Builder, _ *systable.Syscall, c *trace.Call) { c.Mem = append(c.Mem, ms...) }
}
