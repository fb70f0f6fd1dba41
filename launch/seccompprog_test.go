package launch

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// runFilter runs p in x/net/bpf's interpreter on the seccomp_data of a
// call nr on x86-64. The interpreter loads words big-endian (network
// order), so the data is written that way.
func runFilter(t *testing.T, p trace.BPFProgram, nr int) uint32 {
	t.Helper()
	return runFilterArch(t, p, nr, unix.AUDIT_ARCH_X86_64)
}

// runFilterArch runs p on the seccomp_data of a call nr made through the
// ABI arch (an AUDIT_ARCH_ value).
func runFilterArch(t *testing.T, p trace.BPFProgram, nr int, arch uint32) uint32 {
	t.Helper()
	raw := make([]bpf.RawInstruction, len(p))
	for i, in := range p {
		raw[i] = bpf.RawInstruction{Op: in.Code, Jt: in.Jt, Jf: in.Jf, K: in.K}
	}
	insts, ok := bpf.Disassemble(raw)
	if !ok {
		t.Fatalf("program does not disassemble")
	}
	vm, err := bpf.NewVM(insts)
	if err != nil {
		t.Fatalf("NewVM: %v", err)
	}
	data := make([]byte, 64)
	binary.BigEndian.PutUint32(data[0:], uint32(nr))
	binary.BigEndian.PutUint32(data[4:], arch)
	out, err := vm.Run(data)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return uint32(out)
}

// denyOne is a container's filter: mkdir fails with EACCES, all else is
// allowed.
func denyOne(nr int) trace.BPFProgram {
	return trace.BPFProgram{
		{Code: 0x20, K: 0},                                        // ld [0] (nr)
		{Code: 0x15, Jt: 0, Jf: 1, K: uint32(nr)},                 // jeq nr
		{Code: bpfRetK, K: seccompRetErrno | uint32(unix.EACCES)}, // ret ERRNO|EACCES
		{Code: bpfRetK, K: seccompRetAllow},                       // ret ALLOW
	}
}

func TestTracedPrograms(t *testing.T) {
	ours, err := tracingProgram([]string{"getpid"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	theirs := []trace.BPFProgram{denyOne(unix.SYS_MKDIR)}
	progs := tracedPrograms(ours, theirs)
	if len(progs) != 1 {
		t.Fatalf("%d programs, want ours chained into theirs: 1", len(progs))
	}
	cases := []struct {
		name string
		nr   int
		want uint32
	}{
		{"denied: traced with the tag and errno", unix.SYS_MKDIR, seccompRetTrace | deniedTag | uint32(unix.EACCES)},
		{"allowed by both", unix.SYS_GETPID, seccompRetAllow},
		{"allowed by theirs, traced by ours", unix.SYS_OPENAT, seccompRetTrace},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := runFilter(t, progs[0], tc.nr)
			if got != tc.want {
				t.Errorf("result %#x, want %#x", got, tc.want)
			}
			if tc.want&deniedTag != 0 && DeniedErrno(uint64(got&seccompRetData)) != int(unix.EACCES) {
				t.Errorf("DeniedErrno(%#x) = %d, want EACCES", got&seccompRetData, DeniedErrno(uint64(got&seccompRetData)))
			}
		})
	}
	if got := runFilter(t, theirs[0], unix.SYS_MKDIR); got != seccompRetErrno|uint32(unix.EACCES) {
		t.Errorf("the target's own program was changed: %#x", got)
	}
	if p := tracedPrograms(nil, theirs); len(p) != 1 || runFilter(t, p[0], unix.SYS_MKDIR) != seccompRetErrno|uint32(unix.EACCES) {
		t.Errorf("without our filter, theirs must be installed as they are")
	}
	if DeniedErrno(0) != 0 {
		t.Errorf("our own plain trace stop taken for a denied call")
	}
}

// TestTracingProgramTrapsOtherABIs: an i386 call (int 0x80, a 32-bit
// program) traps, whatever its number, so that the tracer never reads it
// as the x86-64 call of the same number; native calls are traced or
// allowed as before, also when chained into a target's filter.
func TestTracingProgramTrapsOtherABIs(t *testing.T) {
	ours, err := tracingProgram([]string{"getpid"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	chained := tracedPrograms(ours, []trace.BPFProgram{denyOne(unix.SYS_MKDIR)})[0]
	for name, p := range map[string]trace.BPFProgram{"ours": ours, "chained": chained} {
		if got := runFilterArch(t, p, 5 /* i386 open */, unix.AUDIT_ARCH_I386); got != seccompRetTrap {
			t.Errorf("%s: i386 call: result %#x, want SECCOMP_RET_TRAP", name, got)
		}
		if got := runFilterArch(t, p, unix.SYS_GETPID, unix.AUDIT_ARCH_I386); got != seccompRetTrap {
			t.Errorf("%s: i386 call numbered like an allowed x86-64 one: result %#x, want SECCOMP_RET_TRAP", name, got)
		}
		if got := runFilter(t, p, unix.SYS_OPENAT); got != seccompRetTrace {
			t.Errorf("%s: x86-64 openat: result %#x, want SECCOMP_RET_TRACE", name, got)
		}
		if got := runFilter(t, p, unix.SYS_GETPID); got != seccompRetAllow {
			t.Errorf("%s: x86-64 getpid: result %#x, want SECCOMP_RET_ALLOW", name, got)
		}
	}
}

// TestStopOnlyProgram: the filter of a run that answers a few calls
// stops those (uname) and lets every other call run, an i386 call
// trapping as in the tracing filter; chained into a target's filter,
// a call the target denies still reaches the tracer tagged.
func TestStopOnlyProgram(t *testing.T) {
	ours, err := tracingProgram(nil, []string{"uname"})
	if err != nil {
		t.Fatal(err)
	}
	chained := tracedPrograms(ours, []trace.BPFProgram{denyOne(unix.SYS_MKDIR)})[0]
	for name, p := range map[string]trace.BPFProgram{"ours": ours, "chained": chained} {
		if got := runFilter(t, p, unix.SYS_UNAME); got != seccompRetTrace {
			t.Errorf("%s: uname: result %#x, want SECCOMP_RET_TRACE", name, got)
		}
		for _, nr := range []int{unix.SYS_OPENAT, unix.SYS_READ, unix.SYS_GETPID, unix.SYS_EXECVE, unix.SYS_CLONE} {
			if got := runFilter(t, p, nr); got != seccompRetAllow {
				t.Errorf("%s: call %d: result %#x, want SECCOMP_RET_ALLOW", name, nr, got)
			}
		}
		if got := runFilterArch(t, p, 122 /* i386 uname */, unix.AUDIT_ARCH_I386); got != seccompRetTrap {
			t.Errorf("%s: i386 call: result %#x, want SECCOMP_RET_TRAP", name, got)
		}
	}
	if CheckStopOnlyFilter(nil) == nil || CheckStopOnlyFilter([]string{"uname"}) != nil {
		t.Errorf("CheckStopOnlyFilter: an empty set must be refused, uname accepted")
	}
}
