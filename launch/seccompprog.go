package launch

import (
	"fmt"

	"golang.org/x/net/bpf"

	"github.com/envbisect/envbisect/trace"
)

// seccomp(2) return actions and classic BPF opcodes the filter rewriting
// reads (linux/seccomp.h, linux/bpf_common.h).
const (
	seccompRetActionFull = 0xffff0000
	seccompRetData       = 0x0000ffff
	seccompRetAllow      = 0x7fff0000
	seccompRetTrace      = 0x7ff00000
	seccompRetErrno      = 0x00050000
	seccompRetTrap       = 0x00030000
	bpfLdWAbs            = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJEqK              = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfRetK              = 0x06 // BPF_RET | BPF_K
	bpfJA                = 0x05 // BPF_JMP | BPF_JA
	bpfMaxInsns          = 4096 // BPF_MAXINSNS
)

// deniedTag marks the SECCOMP_RET_TRACE data of a call that the
// target's own filter denies: its low 12 bits are the errno the filter
// answers with (DeniedErrno). Our own filter's RET_TRACE carries data 0.
const deniedTag = 0x8000

// DeniedErrno returns the errno a seccomp stop's event message carries
// when the target's filter denied the call, or 0 when it is an ordinary
// stop of our own filter.
func DeniedErrno(msg uint64) int {
	if msg&deniedTag == 0 {
		return 0
	}
	return int(msg & 0x0fff)
}

// tracedPrograms returns the filters the helper installs, oldest first,
// so that the command runs under theirs (the target's, oldest first) and
// the tracer still sees every call, denied ones included: ours nil (no
// tracing filter: the PTRACE_SYSCALL fallback, the eBPF recorder) leaves
// theirs as they are. Otherwise each RET_ERRNO|e of theirs becomes
// RET_TRACE|deniedTag|e (SECCOMP_RET_ERRNO outranks SECCOMP_RET_TRACE,
// so the denied call would never reach the tracer), and ours is chained
// into the oldest of theirs: each RET_ALLOW there jumps to ours, so the
// command runs under as many filters as the target does
// (Seccomp_filters in /proc/PID/status), as under docker exec. Where the
// chained program would be too long, ours is installed first, on its
// own. Either way the rewritten filters are installed after ours: for
// results of the same action the kernel returns the data of the most
// recently installed filter, so the denied tag wins over our plain trace.
func tracedPrograms(ours trace.BPFProgram, theirs []trace.BPFProgram) []trace.BPFProgram {
	if ours == nil {
		return theirs
	}
	if len(theirs) == 0 {
		return []trace.BPFProgram{ours}
	}
	out := make([]trace.BPFProgram, len(theirs))
	for i, p := range theirs {
		out[i] = traceDenied(p)
	}
	if chained, ok := chain(out[0], ours); ok {
		out[0] = chained
		return out
	}
	return append([]trace.BPFProgram{ours}, out...)
}

// traceDenied returns p with every constant RET_ERRNO|e turned into
// RET_TRACE|deniedTag|e.
func traceDenied(p trace.BPFProgram) trace.BPFProgram {
	out := make(trace.BPFProgram, len(p))
	copy(out, p)
	for i, in := range out {
		if in.Code == bpfRetK && in.K&seccompRetActionFull == seccompRetErrno {
			errno := in.K & seccompRetData
			if errno > 0x0fff {
				errno = 0x0fff
			}
			out[i].K = seccompRetTrace | deniedTag | errno
		}
	}
	return out
}

// chain returns first followed by second, where every constant RET_ALLOW
// of first jumps to second's start instead: second decides what first
// lets through. first's RET_A results (a computed action) stay as they
// are. ok is false when the result would exceed BPF_MAXINSNS.
func chain(first, second trace.BPFProgram) (trace.BPFProgram, bool) {
	if len(first)+len(second) > bpfMaxInsns {
		return nil, false
	}
	out := make(trace.BPFProgram, 0, len(first)+len(second))
	out = append(out, first...)
	for i, in := range out {
		if in.Code == bpfRetK && in.K == seccompRetAllow {
			out[i] = trace.BPFInstruction{Code: bpfJA, K: uint32(len(first) - i - 1)}
		}
	}
	return append(out, second...), true
}

// tracingProgram assembles our own tracing filter (seccompFilter; with
// stop, stopOnlyFilter) as a program, behind nativeOnly: a call made
// through another ABI than the native one traps instead of stopping as a
// native call would.
func tracingProgram(allow, stop []string) (trace.BPFProgram, error) {
	f := seccompFilter(allow, false)
	if len(stop) > 0 {
		f = stopOnlyFilter(stop)
	}
	insts, err := f.Policy.Assemble()
	if err != nil {
		return nil, fmt.Errorf("seccomp filter: %w", err)
	}
	raw, err := bpf.Assemble(insts)
	if err != nil {
		return nil, fmt.Errorf("seccomp filter: %w", err)
	}
	out := make(trace.BPFProgram, len(raw))
	for i, r := range raw {
		out[i] = trace.BPFInstruction{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	return append(nativeOnly(), out...), nil
}

// nativeOnly is the head of our tracing filter: a call whose
// seccomp_data.arch is not the native one (on x86-64: an i386 call, made through
// int 0x80 or by a 32-bit program) returns SECCOMP_RET_TRAP. The filter
// library would trace it like any other call, and at its stop the
// tracer, which reads a native register file, would take its i386
// number and arguments for an x86-64 call (i386 open, 5, for fstat).
// The trap costs the tracer nothing per native call: the thread gets a
// SIGSYS whose siginfo names the architecture (si_arch), and the engine
// refuses the run at its signal-delivery stop (ptrace/compat_linux.go).
func nativeOnly() trace.BPFProgram {
	return trace.BPFProgram{
		{Code: bpfLdWAbs, K: 4},                           // ld [4]: seccomp_data.arch
		{Code: bpfJEqK, Jt: 1, Jf: 0, K: nativeAuditArch}, // native: go on
		{Code: bpfRetK, K: seccompRetTrap},                // other: SIGSYS
	}
}
