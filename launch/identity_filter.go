package launch

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"runtime"

	"golang.org/x/net/bpf"

	"github.com/envbisect/envbisect/trace"
)

// Seccomp filters as start items. A filter is named by what it does, not
// by its instructions: libseccomp lays out the same profile differently
// from one container to the next (two containers of one image and the
// default profile run programs that differ in their jumps), so a hash of
// the program would differ for nothing. filterBehaviour runs the program
// in a BPF interpreter for every system call number of this architecture,
// with the arguments zero, and hashes the answers; a program the
// interpreter does not take is hashed by its instructions
// (trace.FilterHash).

// auditArch is the AUDIT_ARCH_* of this architecture's system calls, as
// seccomp_data.arch holds it.
func auditArch() uint32 {
	if runtime.GOARCH == "arm64" {
		return 0xc00000b7 // AUDIT_ARCH_AARCH64
	}
	return 0xc000003e // AUDIT_ARCH_X86_64
}

// filterSyscalls is how many system call numbers filterBehaviour asks
// about: every one this architecture has, with room to grow.
const filterSyscalls = 1024

// filterBehaviour returns "sha256:" and 16 hex digits naming what
// program p answers to each system call, its arguments zero.
func filterBehaviour(p trace.BPFProgram) string {
	vm, ok := filterVM(p)
	if !ok {
		return trace.FilterHash(p)
	}
	h := sha256.New()
	var out [4]byte
	for nr := 0; nr < filterSyscalls; nr++ {
		ret, err := vm.Run(seccompData(nr, [6]uint64{}))
		if err != nil {
			return trace.FilterHash(p)
		}
		binary.LittleEndian.PutUint32(out[:], uint32(ret))
		h.Write(out[:])
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// filterVM makes an interpreter of p, or false when it takes no such
// program.
func filterVM(p trace.BPFProgram) (*bpf.VM, bool) {
	raw := make([]bpf.RawInstruction, len(p))
	for i, in := range p {
		raw[i] = bpf.RawInstruction{Op: in.Code, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	insts, ok := bpf.Disassemble(raw)
	if !ok {
		return nil, false
	}
	vm, err := bpf.NewVM(insts)
	if err != nil {
		return nil, false
	}
	return vm, true
}

// seccompData is struct seccomp_data for call nr with args, laid out for
// the interpreter, which loads words big-endian where the kernel loads
// them in host order: each 32-bit word is stored big-endian at its
// place, the low half of an argument first (x86-64 and arm64 are
// little-endian).
func seccompData(nr int, args [6]uint64) []byte {
	d := make([]byte, 64)
	binary.BigEndian.PutUint32(d[0:], uint32(nr))
	binary.BigEndian.PutUint32(d[4:], auditArch())
	for i, a := range args {
		binary.BigEndian.PutUint32(d[16+8*i:], uint32(a))
		binary.BigEndian.PutUint32(d[20+8*i:], uint32(a>>32))
	}
	return d
}

// seccompRetActionOnly masks the action of a seccomp return value
// (SECCOMP_RET_ACTION_FULL).
const seccompRetActionOnly = 0xffff0000

// FilterDenies returns a function that says which errno the filters
// progs answer call nr with args with (SECCOMP_RET_ERRNO), or 0 when none
// of them denies it that way. A program the interpreter does not take
// denies nothing.
func FilterDenies(progs []trace.BPFProgram) func(nr uint32, args [6]uint64) int {
	var vms []*bpf.VM
	for _, p := range progs {
		if vm, ok := filterVM(p); ok {
			vms = append(vms, vm)
		}
	}
	return func(nr uint32, args [6]uint64) int {
		for _, vm := range vms {
			ret, err := vm.Run(seccompData(int(nr), args))
			if err == nil && uint32(ret)&seccompRetActionOnly == seccompRetErrno {
				return int(uint32(ret) & seccompRetData)
			}
		}
		return 0
	}
}
