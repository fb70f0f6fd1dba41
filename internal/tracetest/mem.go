package tracetest

import "github.com/envbisect/envbisect/trace"

// Out adds to c the memory the kernel wrote for argument arg, and returns c.
func Out(c *trace.Call, arg uint8, data string) *trace.Call {
	c.Mem = append(c.Mem, trace.Mem{Arg: arg, Dir: trace.Out, Len: uint64(len(data)), Data: []byte(data)})
	return c
}

// In adds to c the memory the program passed for argument arg, and
// returns c.
func In(c *trace.Call, arg uint8, data string) *trace.Call {
	c.Mem = append(c.Mem, trace.Mem{Arg: arg, Dir: trace.In, Len: uint64(len(data)), Data: []byte(data)})
	return c
}
