package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// workload is one command the harness times.
type workload struct {
	name  string
	label string   // for the table
	argv  []string // the native command
	skip  string   // non-empty: why it cannot run here
}

// variant is one way of running a workload.
type variant struct {
	name   string
	header string
	skip   string // non-empty: why it cannot run here
	// wrap turns the native argv into this variant's; trace is a fresh
	// file path the variant may write its trace to.
	wrap func(argv []string, trace string) []string
	// selfPlaced variants choose their own CPUs (envbisect --cpu).
	selfPlaced bool
	// recorder variants run envbisect record: their trace is read and
	// the recorder's own VmHWM is sampled.
	recorder bool
	// warm variants run once, unmeasured, before the first round: the
	// content cache then holds the workload's files.
	warm bool
}

// workloadNames are the workloads -workloads accepts: the recording
// workloads, then the locate group (locate.go), which has its own table.
var workloadNames = []string{"cloop", "shell", "python", "gcc", "git", "make", "argv10k", "argv100k", "env1m", "locate"}

var variantNames = []string{"native", "envbisect", "envbisect-hashes", "envbisect-nocache", "ebpf", "ebpf-resident", "strace", "strace-seccomp", "minitrace"}

const debianPython = "/usr/bin/python3"

// env holds what setup found and built.
type env struct {
	root      string // repository root
	tmp       string // scratch directory, removed at the end
	envbisect string
	minitrace string // built binary, "" if not built
	cloop     string
	cloopData string
	gccErr    error
	run       runner
	// ebpfSkip says why `record --backend ebpf` cannot run here ("": it
	// can; set by probeEBPF).
	ebpfSkip string
	// resident is the ebpf-resident variant's recorder, residentSkip why
	// that variant cannot run here (set by measureRecording).
	resident     *resident
	residentSkip string
}

// findRoot walks up from the working directory to the directory holding
// this module's go.mod.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(b), "module github.com/envbisect/envbisect") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the envbisect repository (use -root)")
		}
		dir = parent
	}
}

// buildC compiles a C source with gcc -O2.
func buildC(ctx context.Context, src, out string) error {
	cmd := exec.CommandContext(ctx, "gcc", "-O2", "-o", out, src)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("gcc %s: %v\n%s", src, err, b)
	}
	return nil
}

// setup builds the C programs and prepares the scratch directory.
func setup(ctx context.Context, o options) (*env, error) {
	e := &env{root: o.root}
	if e.root == "" {
		r, err := findRoot()
		if err != nil {
			return nil, err
		}
		e.root = r
	}
	e.envbisect = o.envbisect
	if e.envbisect == "" {
		e.envbisect = filepath.Join(e.root, "bin", "envbisect")
	}
	tmp, err := os.MkdirTemp("", "envbisect-bench-")
	if err != nil {
		return nil, err
	}
	e.tmp = tmp
	e.run = runner{env: benchEnv(), dir: tmp, timeout: o.timeout}
	if _, err := exec.LookPath("gcc"); err != nil {
		e.gccErr = errors.New("gcc not installed")
		return e, nil
	}
	e.minitrace = filepath.Join(tmp, "minitrace")
	if err := buildC(ctx, filepath.Join(e.root, "tools", "bench", "minitrace", "minitrace.c"), e.minitrace); err != nil {
		e.minitrace = ""
		e.gccErr = err
	}
	measure := filepath.Join(tmp, "measure")
	if err := buildC(ctx, filepath.Join(e.root, "tools", "bench", "measure", "measure.c"), measure); err != nil {
		e.gccErr = err
	} else {
		e.run.measure = measure
	}
	e.cloop = filepath.Join(tmp, "cloop")
	if err := buildC(ctx, filepath.Join(e.root, "testdata", "victims", "cloop.c"), e.cloop); err != nil {
		e.cloop = ""
		e.gccErr = err
	}
	// cloop reads a small file of its own, the same on every machine.
	e.cloopData = filepath.Join(tmp, "cloop.dat")
	if err := os.WriteFile(e.cloopData, []byte(strings.Repeat("envbisect bench\n", 32)), 0o644); err != nil {
		return nil, err
	}
	return e, nil
}

// pinned prefixes argv with taskset when the run is pinned: tracer and
// tracee on the last CPU, the one envbisect --cpu auto picks.
func (o options) pinned(argv []string) []string {
	if !o.pin {
		return argv
	}
	return append([]string{"taskset", "-c", strconv.Itoa(runtime.NumCPU() - 1)}, argv...)
}

// placed is pinned for variants that do not place themselves.
func (o options) placed(v variant, argv []string) []string {
	if v.selfPlaced {
		return argv
	}
	return o.pinned(argv)
}

// workloads builds the selected workloads, calibrating cloop.
func (e *env) workloads(ctx context.Context, o options, progress io.Writer) []workload {
	var out []workload
	for _, name := range o.workloads {
		w := workload{name: name}
		switch name {
		case "cloop":
			if e.cloop == "" {
				w.label, w.skip = "cloop", fmt.Sprintf("cannot build cloop: %v", e.gccErr)
				break
			}
			iters := o.cloopIters
			if iters <= 0 {
				var err error
				iters, err = e.calibrate(ctx, o)
				if err != nil {
					w.label, w.skip = "cloop", err.Error()
					break
				}
				fmt.Fprintf(progress, "bench: cloop calibrated to %d iterations for ~%v native\n", iters, o.cloopNative)
			}
			w.label = fmt.Sprintf("cloop: %s × open+read+close", thousands(int64(iters)))
			w.argv = []string{e.cloop, fmt.Sprint(iters), e.cloopData}
		case "shell":
			w.label = fmt.Sprintf("shell: %d × /bin/true", o.shellIters)
			w.argv = []string{"/bin/sh", "-c", fmt.Sprintf("for i in $(seq %d); do /bin/true; done", o.shellIters)}
		case "python":
			w.label = fmt.Sprintf("python: %d × python3 imports", o.pythonIters)
			if _, err := os.Stat(debianPython); err != nil {
				w.skip = debianPython + " not installed (apt-get install python3)"
				break
			}
			w.argv = []string{"/bin/sh", "-c", fmt.Sprintf(
				"for i in $(seq %d); do %s -c 'import json, ssl, sqlite3, email, http.client' || exit 1; done",
				o.pythonIters, debianPython)}
		case "gcc":
			w.label = "gcc: compile and link a C file"
			if e.gccErr != nil {
				w.skip = e.gccErr.Error()
				break
			}
			src := filepath.Join(e.tmp, "hello.c")
			code := "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n" +
				"int main(int argc, char **argv) { printf(\"%zu\\n\", strlen(argc > 1 ? argv[1] : \"hello\")); return EXIT_SUCCESS; }\n"
			if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
				w.skip = err.Error()
				break
			}
			w.argv = []string{"gcc", "-O2", "-o", filepath.Join(e.tmp, "hello"), src}
		case "git":
			w.label = fmt.Sprintf("git: status in a repository of %s files", thousands(gitFiles))
			argv, err := gitRepo(ctx, filepath.Join(e.tmp, "repo"))
			if err != nil {
				w.skip = err.Error()
				break
			}
			w.argv = argv
		case "make":
			w.label = fmt.Sprintf("make: -j2 build of %d C files with gcc -O2", makeFiles+1)
			if e.gccErr != nil {
				w.skip = e.gccErr.Error()
				break
			}
			argv, err := makeProject(filepath.Join(e.tmp, "project"))
			if err != nil {
				w.skip = err.Error()
				break
			}
			w.argv = argv
		case "argv10k", "argv100k":
			n := map[string]int{"argv10k": 10_000, "argv100k": 100_000}[name]
			w.label = fmt.Sprintf("argv: /bin/true with %s arguments", thousands(int64(n)))
			w.argv = append([]string{"/bin/true"}, numbers(n)...)
		case "env1m":
			w.label = "env: /bin/true with a 1 MB environment"
			w.argv = bigEnv()
		}
		out = append(out, w)
	}
	return out
}

// calibrate times cloop natively (under the same pinning) and scales the
// iteration count to o.cloopNative.
func (e *env) calibrate(ctx context.Context, o options) (int, error) {
	const probe = 50000
	best := time.Duration(0)
	for i := 0; i < 3; i++ {
		r := e.run.run(ctx, o.pinned([]string{e.cloop, fmt.Sprint(probe), e.cloopData}), false)
		if r.err != nil || r.status != 0 {
			return 0, fmt.Errorf("cloop calibration run failed: status %d %v %s", r.status, r.err, lastLine(r.stderr))
		}
		if best == 0 || r.wall < best {
			best = r.wall
		}
	}
	iters := int(float64(probe) * float64(o.cloopNative) / float64(best))
	if iters >= 10000 {
		iters = iters / 1000 * 1000
	}
	return max(iters, 1000), nil
}

// variants returns the selected variants with native first, each with
// the reason it cannot run here, if any.
func (e *env) variants(o options) []variant {
	var out []variant
	seccompArgs := []string{"strace", "-f", "--seccomp-bpf", "-o", "/dev/null"}
	seccompHeader := "strace -f --seccomp-bpf"
	if o.seccompFilter != "" {
		seccompArgs = append(seccompArgs, "-e", "trace="+o.seccompFilter)
		seccompHeader += " -e trace=" + o.seccompFilter
	}
	_, straceErr := exec.LookPath("strace")
	for _, name := range append([]string{"native"}, o.variants...) {
		v := variant{name: name}
		switch name {
		case "native":
			if len(out) > 0 {
				continue // already first
			}
			v.header = "native"
			v.wrap = func(argv []string, _ string) []string { return argv }
		case "envbisect":
			v.header = "envbisect record"
			if _, err := os.Stat(e.envbisect); err != nil {
				v.skip = fmt.Sprintf("%s not built (make build)", e.envbisect)
			}
			bin := e.envbisect
			// envbisect places itself: by default tracer and command share
			// the last CPU (--cpu auto). Unpinned runs turn that off so all
			// variants run under the same placement.
			cpu := recordCPU(o)
			// A content cache of the harness's own, filled by an
			// unmeasured run: a repeated recording (issue 13).
			cache := filepath.Join(e.tmp, "content-cache")
			v.wrap = func(argv []string, trace string) []string {
				return append([]string{bin, "record", "--content-cache", cache, "--cpu", cpu, "-o", trace, "--"}, argv...)
			}
			v.selfPlaced, v.recorder, v.warm = true, true, true
		case "envbisect-nocache":
			// record keeping contents without the content cache: every
			// file read, hashed and compressed, as in a first recording
			// (which also fills the cache).
			v.header = "envbisect record --no-content-cache"
			if _, err := os.Stat(e.envbisect); err != nil {
				v.skip = fmt.Sprintf("%s not built (make build)", e.envbisect)
			}
			bin := e.envbisect
			cpu := recordCPU(o)
			v.wrap = func(argv []string, trace string) []string {
				return append([]string{bin, "record", "--no-content-cache", "--cpu", cpu, "-o", trace, "--"}, argv...)
			}
			v.selfPlaced, v.recorder = true, true
		case "envbisect-hashes":
			// record keeping the files' identity and hash only: against
			// "envbisect", what keeping their content costs (issue 13).
			v.header = "envbisect record --max-content 0"
			if _, err := os.Stat(e.envbisect); err != nil {
				v.skip = fmt.Sprintf("%s not built (make build)", e.envbisect)
			}
			// It shares envbisect's content cache directory, whose
			// contents it does not use but whose owners it does (since
			// issue 29 the owners of the files a recording looked up are
			// kept there): the two then differ by the contents alone.
			bin := e.envbisect
			cpu := recordCPU(o)
			cache := filepath.Join(e.tmp, "content-cache")
			v.wrap = func(argv []string, trace string) []string {
				return append([]string{bin, "record", "--max-content", "0", "--content-cache", cache, "--cpu", cpu, "-o", trace, "--"}, argv...)
			}
			v.selfPlaced, v.recorder, v.warm = true, true, true
		case "ebpf":
			v.header = ebpfHeader(o)
			if _, err := os.Stat(e.envbisect); err != nil {
				v.skip = fmt.Sprintf("%s not built (make build)", e.envbisect)
			} else if e.ebpfSkip != "" {
				v.skip = e.ebpfSkip
			}
			// The eBPF backend stops nothing, but --cpu still places the
			// command (auto: on the last CPU, as taskset does for native
			// when pinned); unpinned runs leave it to the scheduler.
			v.wrap = func(argv []string, trace string) []string {
				return ebpfArgv(e.envbisect, o, trace, argv)
			}
			v.selfPlaced, v.recorder = true, true
		case "ebpf-resident":
			v.header = "ebpf record via recorder"
			switch {
			case e.residentSkip != "":
				v.skip = e.residentSkip
			case e.resident == nil:
				v.skip = "envbisect recorder not started"
			}
			v.wrap = func(argv []string, trace string) []string {
				return residentArgv(e.envbisect, o, e.resident.socket, trace, argv)
			}
			v.selfPlaced, v.recorder = true, true
		case "strace":
			v.header = "strace -f"
			if straceErr != nil {
				v.skip = "strace not installed (apt-get install strace)"
			}
			v.wrap = func(argv []string, _ string) []string {
				return append([]string{"strace", "-f", "-o", "/dev/null"}, argv...)
			}
		case "strace-seccomp":
			v.header = seccompHeader
			if straceErr != nil {
				v.skip = "strace not installed (apt-get install strace)"
			}
			v.wrap = func(argv []string, _ string) []string {
				return append(append([]string(nil), seccompArgs...), argv...)
			}
		case "minitrace":
			v.header = "minitrace"
			if e.minitrace == "" {
				v.skip = fmt.Sprintf("cannot build minitrace: %v", e.gccErr)
			}
			bin := e.minitrace
			v.wrap = func(argv []string, _ string) []string {
				return append([]string{bin, "-c"}, argv...)
			}
		}
		out = append(out, v)
	}
	return out
}

// recordCPU is envbisect record's --cpu for the run's placement: auto
// (its default: the command, and for ptrace the tracer, on the last CPU)
// when pinned, any when not.
func recordCPU(o options) string {
	if o.pin {
		return "auto"
	}
	return "any"
}

// ebpfArgv is the ebpf variant's command: envbisect record --backend ebpf
// with the -ebpf-args, writing trace. It loads its own probe
// (--recorder off): a resident recorder running on the machine does not
// change what it measures.
func ebpfArgv(bin string, o options, trace string, argv []string) []string {
	out := []string{bin, "record", "--backend", "ebpf", "--recorder", "off"}
	out = append(out, strings.Fields(o.ebpfArgs)...)
	out = append(out, "--cpu", recordCPU(o), "-o", trace, "--")
	return append(out, argv...)
}

// ebpfHeader is the ebpf variant's column header.
func ebpfHeader(o options) string {
	h := "ebpf record"
	if f := strings.Fields(o.ebpfArgs); len(f) > 0 {
		h += " " + strings.Join(f, " ")
	}
	return h
}

// probeEBPF finds out whether the ebpf variant can run here: it needs
// root, and the probe must load (a kernel with BTF, BPF not locked
// down). It records /bin/true once with the variant's own flags and
// returns why that failed, or "".
func (e *env) probeEBPF(ctx context.Context, o options) string {
	if os.Geteuid() != 0 {
		return "needs root (the eBPF backend loads BPF programs): run the harness as root"
	}
	if _, err := os.Stat(e.envbisect); err != nil {
		return "" // the variant says it is not built
	}
	trace := filepath.Join(e.tmp, "ebpf-probe.envb")
	defer os.Remove(trace)
	r := e.run.run(ctx, ebpfArgv(e.envbisect, o, trace, []string{"/bin/true"}), false)
	if r.err != nil || r.status != 0 {
		cmd := strings.Join(append([]string{"envbisect record --backend ebpf"}, strings.Fields(o.ebpfArgs)...), " ")
		return "`" + cmd + " -- /bin/true` fails here (the probe needs a kernel with BTF and BPF allowed): " + describe(r)
	}
	return ""
}

// benchEnv is the environment of every run: the harness's own, with
// Python's bytecode writing off so that no run changes the next one.
func benchEnv() []string {
	return append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
}

// thousands formats n with comma separators.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// The argv and env workloads measure the cost of recording a large
// command line and environment (issue 20: it must grow linearly, which
// argv10k against argv100k shows).

// numbers is "0" to n-1.
func numbers(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
}

// bigEnv is /bin/true run by env(1) with ten more variables of 100 kB (the
// kernel limits one string to 128 KiB).
func bigEnv() []string {
	argv := []string{"/usr/bin/env"}
	value := strings.Repeat("x", 100_000)
	for i := range 10 {
		argv = append(argv, fmt.Sprintf("BIG%d=%s", i, value))
	}
	return append(argv, "/bin/true")
}
