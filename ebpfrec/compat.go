package ebpfrec

import (
	"debug/elf"
	"fmt"
	"io"
	"os"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/launch"
)

// compatCall handles the probe's record of a system call made through
// the i386 ABI: the first one refuses the run (a.compat) and calls
// a.refuse, which ends it. The probe sends no more than one per thread
// and captures nothing of them: their numbers and registers are not the
// x86-64 table's.
func (a *assembler) compatCall(r *bpf.Call) {
	if a.compat != nil {
		return
	}
	pid, exe := int(r.TGID), ""
	if t := a.thread(r.TID); t != nil {
		if !t.proc.execd {
			return // the helper's, before the command's image: never i386
		}
		pid, exe = int(t.proc.pid), t.proc.exe
	}
	if exe == "" {
		exe, _ = os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	}
	how := launch.CompatCall("i386", int(r.Nr))
	if elf32(fmt.Sprintf("/proc/%d/exe", pid)) || elf32(exe) {
		how = launch.CompatProgram
	}
	a.compat = &launch.CompatError{PID: pid, Exe: exe, How: how}
	if a.refuse != nil {
		a.refuse()
	}
}

// elf32 reports whether path is a 32-bit ELF file (best effort: false
// when it cannot be read, as when its process is gone).
func elf32(path string) bool {
	if path == "" {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var ident [elf.EI_NIDENT]byte
	if _, err := io.ReadFull(f, ident[:]); err != nil {
		return false
	}
	return string(ident[:4]) == elf.ELFMAG && elf.Class(ident[elf.EI_CLASS]) == elf.ELFCLASS32
}
