package ptrace

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// Bounds on a new image's initial stack, against a corrupt one.
const (
	maxStackArgs   = 1 << 17  // argv + envp entries
	maxStackRegion = 4 << 20  // bytes of strings read
	stackChunk     = 2 * 4096 // first read at sp
)

var errBadStack = errors.New("initial stack not in the expected layout")

// auxvEntry is one entry of a new image's auxiliary vector, with the
// address of its key word on the stack.
type auxvEntry struct {
	key, value, addr uint64
}

// Auxiliary vector keys the tracer reads or changes.
const (
	atIgnore      = 1
	atSysinfoEHDR = 33 // the vDSO
)

// readInitialStack reads what execve left on a new image's stack, from
// its stack pointer at the exec event: argc, the argv and envp pointer
// arrays, the auxiliary vector, and the strings they point to (argv and
// envp strings, then the file name, near the top of the stack). It takes
// two or three process_vm_readv calls, where /proc/PID/{cmdline,environ,
// auxv} would take a dozen system calls.
func readInitialStack(m memReader, sp uint64) (img *execImage, auxv []auxvEntry, err error) {
	words, err := m.read(sp, stackChunk)
	if err != nil && len(words) < 8 {
		return nil, nil, err
	}
	word := func(i int) (uint64, bool) {
		for (i+1)*8 > len(words) {
			if len(words) >= maxStackArgs*8 {
				return 0, false
			}
			more, err := m.read(sp+uint64(len(words)), stackChunk)
			words = append(words, more...)
			if err != nil && len(more) == 0 {
				return 0, false
			}
		}
		return binary.LittleEndian.Uint64(words[i*8:]), true
	}
	argc, ok := word(0)
	if !ok || argc > maxStackArgs {
		return nil, nil, errBadStack
	}
	var argv, envp []uint64
	i := 1
	for ; i <= int(argc); i++ {
		p, ok := word(i)
		if !ok {
			return nil, nil, errBadStack
		}
		argv = append(argv, p)
	}
	i++ // argv's NULL
	for {
		p, ok := word(i)
		if !ok || len(envp) > maxStackArgs {
			return nil, nil, errBadStack
		}
		i++
		if p == 0 {
			break
		}
		envp = append(envp, p)
	}
	var execfn uint64
	for {
		k, ok1 := word(i)
		v, ok2 := word(i + 1)
		if !ok1 || !ok2 || len(auxv) > 256 {
			return nil, nil, errBadStack
		}
		i += 2
		if k == 0 {
			break
		}
		auxv = append(auxv, auxvEntry{key: k, value: v, addr: sp + uint64(i-2)*8})
		if k == atExecFn {
			execfn = v
		}
	}
	// The strings: from the lowest pointer to the end of the file name.
	lo, hi := execfn, execfn+maxString
	for _, p := range append(append([]uint64{}, argv...), envp...) {
		lo = min(lo, p)
	}
	if execfn == 0 || lo == 0 || hi-lo > maxStackRegion {
		return nil, nil, errBadStack
	}
	region, _ := m.read(lo, int(hi-lo)) // stops at the top of the stack
	str := func(p uint64) []byte {
		if p < lo || p-lo >= uint64(len(region)) {
			return nil
		}
		s := region[p-lo:]
		if j := bytes.IndexByte(s, 0); j >= 0 {
			return s[:j]
		}
		return s
	}
	join := func(ptrs []uint64) []byte {
		var out []byte
		for _, p := range ptrs {
			out = append(append(out, str(p)...), 0)
		}
		return out
	}
	img = &execImage{path: append([]byte(nil), str(execfn)...), argv: join(argv), envp: join(envp)}
	return img, auxv, nil
}
