package testutil

import (
	"debug/elf"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"
	"golang.org/x/sys/unix"
)

// NoSkipEnv is the variable that turns skips into failures (set by CI).
const NoSkipEnv = "ENVBISECT_TEST_NO_SKIP"

// Need is one requirement a test can have.
type Need struct {
	what  string
	check func() bool
}

// Root: the test runs as uid 0.
var Root = Need{"root (run the tests as root)", func() bool { return os.Geteuid() == 0 }}

// Ptrace: this process may trace its children.
var Ptrace = Need{"ptrace permission", func() bool {
	// A child that stops itself under PTRACE_TRACEME proves permission; the
	// cheap proxy is the Yama scope: 3 forbids all ptrace.
	b, err := os.ReadFile("/proc/sys/kernel/yama/ptrace_scope")
	return err != nil || len(b) == 0 || b[0] != '3'
}}

// Seccomp: the kernel has seccomp filters.
var Seccomp = Need{"seccomp filters (CONFIG_SECCOMP_FILTER)", func() bool {
	// PR_GET_SECCOMP fails with EINVAL when seccomp is compiled out.
	_, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	return err == nil
}}

// EBPF: this process may load the eBPF recorder's kind of program (a raw
// tracepoint program: root, or CAP_BPF and CAP_PERFMON), and the kernel
// has the BTF its CO-RE relocations need. The check loads a two-instruction
// program and closes it.
var EBPF = Need{"eBPF: root (or CAP_BPF and CAP_PERFMON) and a kernel with BTF (/sys/kernel/btf/vmlinux)", func() bool {
	if _, err := os.Stat("/sys/kernel/btf/vmlinux"); err != nil {
		return false
	}
	prog, err := ebpf.NewProgram(&ebpf.ProgramSpec{
		Type:         ebpf.RawTracepoint,
		License:      "GPL",
		Instructions: asm.Instructions{asm.Mov.Imm(asm.R0, 0), asm.Return()},
	})
	if err != nil {
		return false
	}
	prog.Close()
	return true
}}

// CPUs: this process may run on at least n CPUs (its affinity mask).
func CPUs(n int) Need {
	return Need{"a machine with at least " + strconv.Itoa(n) + " CPUs this process may run on", func() bool {
		var set unix.CPUSet
		return unix.SchedGetaffinity(0, &set) == nil && set.Count() >= n
	}}
}

// Binary: an executable named name is on PATH (a Debian package installs it).
func Binary(name string) Need {
	return Need{"the program " + name + " (apt-get install the package that has it)", func() bool {
		_, err := exec.LookPath(name)
		return err == nil
	}}
}

// File: a file exists at path.
func File(path string) Need {
	return Need{path + " (install the package that provides it)", func() bool {
		_, err := os.Stat(path)
		return err == nil
	}}
}

// StaticFile: a statically linked executable exists at path (no ELF
// interpreter): one that runs in an image without a libc, such as the
// busybox of Debian's busybox-static (the busybox package's is dynamic).
func StaticFile(path, pkg string) Need {
	return Need{"a statically linked " + path + " (apt-get install " + pkg + ")", func() bool {
		f, err := elf.Open(path)
		if err != nil {
			return false
		}
		defer f.Close()
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				return false
			}
		}
		return true
	}}
}

// Require skips t unless every need is met; with ENVBISECT_TEST_NO_SKIP=1
// it fails instead.
func Require(t testing.TB, needs ...Need) {
	t.Helper()
	for _, n := range needs {
		if n.check() {
			continue
		}
		if os.Getenv(NoSkipEnv) != "" {
			t.Fatalf("missing %s, and %s is set: this test must run here", n.what, NoSkipEnv)
		}
		t.Skipf("skipped: needs %s", n.what)
	}
}
