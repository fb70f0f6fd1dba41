package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/ebpfrec"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/record"
	"github.com/envbisect/envbisect/recorder"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
	"github.com/envbisect/envbisect/verdict"
)

type recordOptions struct {
	output     string
	owner      ownerFlag // --chown
	aslr       bool
	noSeccomp  bool
	secrets    secretFlags
	maxCapture string
	cpu        string
	noVDSO     bool
	maxContent string
	// noCache and cacheSize: --no-content-cache, --content-cache-size.
	noCache   bool
	cacheDir  string
	cacheSize string
	quiet     bool
	force     bool
	verdict   verdictFlags
	backend   string
	ringSize  string
	attach    bool
	duration  time.Duration
	where     containerFlags
	box       sandboxFlags
	keep      keepFDsFlag
	recorder  recorderUse
}

func newRecordCommand(s streams) *cobra.Command {
	var opts recordOptions
	cmd := &cobra.Command{
		Use:   "record [-o FILE] [flags] -- CMD [ARGS...]",
		Short: "run a command and record its system calls",
		Long: `Run CMD under the tracer and record every system call it and its child
processes and threads make, with the data each call read or wrote, into a
trace file (created with mode 0600: it can hold file contents; see Secrets
below).

The trace is written beside FILE (as .FILE.RANDOM.partial) and renamed to FILE
when the recording ends, so FILE is never half-written and a symbolic link is
never followed: a link at FILE is refused, and an existing FILE is replaced
only when it is an envbisect trace, or with --force. If record itself is
killed (SIGKILL), the trace up to then stays at the partial name. The
partial file is there while CMD runs: put FILE outside the trees CMD
reads (not in a directory it archives or lists).

CMD's standard input, output and error pass through; they are the only
descriptors CMD gets, like under docker exec, whatever envbisect inherited,
unless --keep-fds passes more (the trace names every descriptor CMD started
with). Address randomisation
is turned off for CMD (recorded in the trace) unless --aslr is given.
Ctrl-C reaches CMD as usual; the trace is complete up to its exit. A CMD
still running 3 s later gets SIGTERM, and 3 s after that CMD and everything it
started are killed, as by a second Ctrl-C.

--chown USER[:GROUP] gives the trace file to USER once written, so that a
trace recorded with sudo is readable by the user's next step (a CI job's
artifact upload). -o - is refused: CMD's own output goes to stdout.

--sandbox records CMD in a throwaway copy of the file system, as locate runs
it (see 'envbisect locate --help'): nothing CMD writes outside --persist
paths survives, for recording a destructive command without its side
effects. Where the sandbox cannot be made, record fails instead.

The trace keeps the good environment's files: every regular file CMD opens
for reading and every program it executes (with its ELF interpreter), with
its path, size, mode, owner, mtime and SHA-256 and, by default, its whole
content, stored once however many processes use it, so that locate can hand
the program the good environment's files. --exclude-content keeps a path's
identity and hash only; --max-content bounds the total (files past it keep
only their hash, and record says which). 'envbisect show --files' lists them.
What a recording stored of a file is also kept in a content cache shared by
recordings ($XDG_CACHE_HOME/envbisect/content, or ~/.cache/envbisect/content;
mode 0700), keyed by the file's device, inode, size, mtime and ctime, so that
recording again costs nothing for the files stored before (a changed file
misses). --content-cache puts it elsewhere, --content-cache-size bounds it
(least recently used go first); --no-content-cache neither reads nor
writes it. The cache is only read while CMD runs: it is created and
written after CMD has exited (and --check has run), so CMD never sees it
change; record warns when CMD reaches a cache that an earlier recording
left in a tree it reads (a HOME it archives), which is then part of what
CMD saw: keep the cache outside such trees.

--backend ebpf records the same trace from raw tracepoints without stopping
CMD (near-zero overhead; root, or CAP_BPF and CAP_PERFMON). Its data travels
through a ring buffer (--ring-size, 4M per CPU by default); what does not fit is lost, counted in the
trace (show prints it) and never replayed by locate. Buffers are stored up to
--max-capture (64K by default with ebpf). With --attach and --container, it
records everything a running container does, starting nothing. When a resident
recorder (envbisect recorder) answers on its socket (--recorder), the recording
goes through it and starts in milliseconds instead of loading the programs.

Give the flags that locate will use to judge a run (--check, --alive,
--timeout): record judges the recorded run the same way and warns when it
did not pass, since a trace of a failing run cannot locate anything.

By default (--cpu auto) CMD and the tracer share one CPU, which makes
recording faster, and CMD sees that one CPU: nproc says 1. A command that
needs more CPUs, or counts them, is recorded with --cpu any; when a run
recorded pinned did not pass, record says so. The trace records how CMD
was placed, and replay and locate place it the same way by default.

` + secretHelp + `

` + verdictHelp + `

Exit status:
  CMD's own exit status, or 128+N when CMD was killed by signal N; with
       --check or --alive: 0 when the run passed, else CMD's status (1 if
       that was 0)
  127  CMD was not found
  126  CMD could not be executed
  1    envbisect failed (unwritable output, no ptrace permission, ...)
  2    bad usage`,
		Example: `  envbisect record -o good.envb -- make test
  envbisect record --exclude-content '/home/*/.ssh/**' -- ./deploy.sh
  envbisect record --container good -o good.envb -- app --config /etc/app.conf`,
		Args: func(c *cobra.Command, args []string) error {
			if opts.attach {
				if len(args) > 0 {
					return usageError("--attach records what the container does: give no command (got %q)", args[0])
				}
				return nil
			}
			if len(args) == 0 {
				return usageError("no command to record: give one after --, e.g. envbisect record -- make test")
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			opts.recorder.ringGiven = c.Flags().Changed("ring-size")
			return runRecord(s, opts, args)
		},
	}
	f := cmd.Flags()
	f.SetInterspersed(false)
	f.StringVarP(&opts.output, "output", "o", "trace.envb", "trace file to write")
	f.BoolVar(&opts.force, "force", false, "replace the output file even when it is not an envbisect trace")
	opts.owner.add(f)
	f.BoolVar(&opts.aslr, "aslr", false, "leave address space randomisation on")
	f.BoolVar(&opts.noSeccomp, "no-seccomp", false, "stop at every system call instead of using a seccomp filter (slower)")
	opts.secrets.add(f)
	f.StringVar(&opts.maxCapture, "max-capture", "0", "store at most `SIZE` bytes of each buffer (e.g. 64K, 1M; 0: all)")
	f.StringVar(&opts.maxContent, "max-content", "512M", "keep at most `SIZE` bytes of the content of the files CMD reads and executes "+
		"(e.g. 100M, 2G; 0: their identity and hash only); files past it keep only their hash")
	f.BoolVar(&opts.noCache, "no-content-cache", false, "neither read nor write the content cache shared by recordings")
	f.StringVar(&opts.cacheDir, "content-cache", "", "keep the content cache shared by recordings in `DIR` (default $XDG_CACHE_HOME/envbisect/content or ~/.cache/envbisect/content)")
	f.StringVar(&opts.cacheSize, "content-cache-size", "1G", "bound the content cache shared by recordings to `SIZE` bytes (least recently used entries go first)")
	f.StringVar(&opts.cpu, "cpu", "auto", "run the tracer and CMD on one CPU: `N`, auto (the last CPU), or any (no pinning: for commands that compute in parallel "+
		"or count their CPUs, such as nproc or make -j$(nproc)); the trace records which, and replay and locate follow it")
	f.BoolVar(&opts.noVDSO, "no-vdso", false, "hide the vDSO from CMD so that time queries (clock_gettime, gettimeofday) become system calls in the trace (slower, notably for Go programs)")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "print nothing but errors")
	f.StringVar(&opts.backend, "backend", "ptrace", "how to record: `ptrace` (stops the command at each call; works unprivileged) "+
		"or ebpf (raw tracepoints and a ring buffer, near-zero overhead; needs root, or CAP_BPF and CAP_PERFMON, and a kernel with BTF)")
	f.StringVar(&opts.ringSize, "ring-size", "auto", "ebpf: the ring buffer's `SIZE` (a power of two, at least 4K), or auto: 4M per CPU, from 8M to 64M; "+
		"what does not fit is lost, counted and never replayed")
	f.StringVar(&opts.recorder.flag, "recorder", "auto", "ebpf: record through the resident recorder (envbisect recorder) at `SOCKET`: "+
		"auto tries $"+recorderEnv+" or "+recorder.DefaultSocket+" and loads the probe here when none answers (or with --ring-size); off never asks")
	f.BoolVar(&opts.attach, "attach", false, "ebpf: start nothing; record everything the --container does (every process of its cgroup), "+
		"or the --pid process, its threads and the processes it starts, until --duration passes or Ctrl-C "+
		"(an observation trace, for show, diff and deps)")
	f.DurationVar(&opts.duration, "duration", 0, "with --attach: stop after `D` (e.g. 30s); 0: at Ctrl-C")
	opts.verdict.add(f)
	opts.where.add(f)
	opts.box.add(f, false, false)
	opts.keep.add(f)
	return cmd
}

// checkBackend validates the eBPF flags against the rest.
func (opts recordOptions) checkBackend() (ringSize int, err error) {
	ebpf := opts.backend == trace.BackendEBPF
	switch {
	case opts.backend != "ptrace" && !ebpf:
		return 0, usageError("--backend %q: give ptrace or ebpf", opts.backend)
	case opts.attach && !ebpf:
		return 0, usageError("--attach needs --backend ebpf: ptrace can only record a command it starts")
	case opts.attach && !opts.where.given():
		return 0, usageError("--attach records a container: give --container NAME|ID (or --pid PID)")
	case opts.duration != 0 && !opts.attach:
		return 0, usageError("--duration bounds an --attach recording; a command's recording lasts until it exits (see --timeout)")
	case opts.duration < 0:
		return 0, usageError("--duration %v: give a positive duration", opts.duration)
	case opts.attach && opts.verdict.given():
		return 0, usageError("--attach judges no run: --check, --alive and --timeout need a command")
	case ebpf && opts.noSeccomp:
		return 0, usageError("--no-seccomp is a ptrace option; the eBPF backend stops nothing")
	case ebpf && opts.noVDSO:
		return 0, usageError("--no-vdso needs the ptrace backend, which rewrites the new image's auxiliary vector at each exec")
	}
	if opts.ringSize == "auto" {
		return 0, nil // sized to the CPUs (bpf.DefaultRingSize)
	}
	n, err := parseSize(opts.ringSize)
	if err != nil || n < 4096 || n&(n-1) != 0 || n > 1<<30 {
		return 0, usageError("--ring-size %q: give a power of two from 4K to 1G", opts.ringSize)
	}
	return int(n), nil
}

func runRecord(s streams, opts recordOptions, argv []string) error {
	if err := opts.secrets.validate(); err != nil {
		return err
	}
	maxCapture, err := parseSize(opts.maxCapture)
	if err != nil {
		return usageError("--max-capture: %v", err)
	}
	maxContent, err := parseSize(opts.maxContent)
	if err != nil {
		return usageError("--max-content: %v", err)
	}
	if opts.output == "-" {
		return usageError("-o -: a trace cannot go to standard output, where the command's own output goes; " +
			"give a file name (./- for a file named '-')")
	}
	traceOwner, err := opts.owner.resolve()
	if err != nil {
		return err
	}
	cacheSize, err := parseSize(opts.cacheSize)
	if err != nil || cacheSize == 0 {
		return usageError("--content-cache-size %q: give a size such as 512M or 2G (--no-content-cache turns the cache off)", opts.cacheSize)
	}
	if opts.noCache && opts.cacheDir != "" {
		return usageError("--no-content-cache and --content-cache: give one")
	}
	cacheDir := opts.cacheDir
	if !opts.noCache && cacheDir == "" && maxContent > 0 {
		// The default cache where it can be: a home that cannot hold one
		// (read-only, another user's) records without it, silently.
		// Nothing is made now: the cache is written after the command
		// has exited (launch/places.go).
		if dir, err := launch.ContentCacheDir(); err == nil && tracefile.CheckContentCacheDir(dir) == nil {
			cacheDir = dir
		}
	}
	cpu, err := parseCPU(opts.cpu)
	if err != nil {
		return err
	}
	if err := opts.verdict.validate(); err != nil {
		return err
	}
	var judge *verdict.Spec
	if opts.verdict.given() {
		judge = &opts.verdict.spec
	}
	ringSize, err := opts.checkBackend()
	if err != nil {
		return err
	}
	limitEBPFMemory(opts.backend)
	keep, err := opts.keep.resolve()
	if err != nil {
		return err
	}
	join, env, dir, err := opts.where.resolve()
	if err != nil {
		return err
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if opts.attach {
		if opts.box.mode != "off" {
			return usageError("--sandbox runs a command in a throwaway file system; --attach starts none")
		}
		if len(keep) > 0 {
			return usageError("--keep-fds passes descriptors to a command; --attach starts none")
		}
		return runObserve(s, opts, traceOwner, join, ringSize, maxCapture, sigs)
	}
	box, _, err := opts.box.spec(s, runSite{join: join, env: env, dir: dir}, true)
	if err != nil {
		return err
	}
	var through recorderUsed
	var openProbe func(bpf.Options) (ebpfrec.Source, error)
	if opts.backend == trace.BackendEBPF {
		openProbe = opts.recorder.opener(s, &through)
	}
	sum, err := record.Run(record.Options{
		Backend: opts.backend, RingSize: ringSize, OpenProbe: openProbe,
		Join: join, Env: env, Dir: dir,
		Output:       opts.output,
		Replace:      opts.force,
		Argv:         argv,
		ASLR:         opts.aslr,
		NoSeccomp:    opts.noSeccomp,
		Exclude:      opts.secrets.excludeContent,
		ExcludeEnv:   opts.secrets.excludeEnv,
		KeepEnv:      opts.secrets.keepEnv,
		MaxCapture:   maxCapture,
		MaxContent:   maxContent,
		NoContent:    maxContent == 0,
		ContentCache: cacheDir, ContentCacheSize: int64(min(cacheSize, 1<<62)),
		CPU:       cpu,
		NoVDSO:    opts.noVDSO,
		Judge:     judge,
		Sandbox:   box,
		KeepFDs:   keep,
		Interrupt: sigs,
		Warn:      s.warn,
	})
	var ee *launch.ExecError
	if errors.As(err, &ee) {
		return withCode(ee.Code, ee)
	}
	if errors.Is(err, ptrace.ErrPtraceDenied) {
		return withCode(exitError, err)
	}
	if err != nil {
		return withCode(exitError, fmt.Errorf("record: %w", err))
	}
	if err := traceOwner.apply(opts.output); err != nil {
		return withCode(exitError, err)
	}
	if !opts.quiet {
		backend := sum.Backend
		if through.socket != "" {
			backend += ", through the recorder at " + through.socket
		}
		fmt.Fprintf(s.err, "envbisect: recorded %d calls in %d processes (%d threads) to %s (%s, %s)\n",
			sum.Calls, sum.Procs, sum.Threads, opts.output, humanBytes(sum.Bytes), backend)
	}
	if !opts.quiet {
		sayRedacted(s, sum)
	}
	warnLost(s, sum.Lost)
	if n := through.hidden(); n > 0 {
		// Loud even with -q: the trace misses whole programs.
		fmt.Fprintf(s.err, "envbisect: WARNING: %d process(es) of CMD ran a set-user-ID, set-group-ID or file-capability program; "+
			"the resident recorder does not show you what such a program does (ptrace would not have run it privileged), "+
			"so the trace stops at its exec; record as root to keep them\n", n)
	}
	warnOverBudget(s, sum)
	if v := sum.Verdict; v.Verdict != verdict.Pass {
		// Loud even with -q: this trace cannot locate anything.
		fmt.Fprintf(s.err, "envbisect: WARNING: the recorded run did not pass (%s: %s): this trace records a failing run, "+
			"and locate needs a trace of a run that works\n", v.Verdict, v.Detail)
		if cpu >= 0 {
			// envbisect's own pinning may be why: say so.
			fmt.Fprintf(s.err, "envbisect: WARNING: CMD ran pinned to CPU %d (--cpu %s), so it saw one CPU (nproc says 1); "+
				"if it needs more, record again with --cpu any\n", cpu, opts.cpu)
		}
		if v.CheckOutput != "" && !opts.quiet {
			fmt.Fprintf(s.err, "envbisect: the check printed:\n%s", v.CheckOutput)
		}
	}
	if judge == nil {
		return withCode(sum.ExitCode, nil)
	}
	if sum.Verdict.Verdict == verdict.Pass {
		return nil
	}
	if sum.ExitCode == 0 {
		return withCode(exitError, nil)
	}
	return withCode(sum.ExitCode, nil)
}

// runObserve records an observation trace of a container (--attach).
func runObserve(s streams, opts recordOptions, traceOwner owner, join *trace.Join, ringSize int, maxCapture uint64, sigs <-chan os.Signal) error {
	if !opts.quiet {
		until := "Ctrl-C"
		if opts.duration > 0 {
			until = opts.duration.String()
		}
		fmt.Fprintf(s.err, "envbisect: observing %s until %s\n", render.Visible(join.Name), until)
	}
	sum, err := record.Observe(record.ObserveOptions{
		Output: opts.output, Replace: opts.force, Join: join, PID: opts.where.pid, Duration: opts.duration, RingSize: ringSize,
		MaxCapture: maxCapture, Exclude: opts.secrets.excludeContent, Interrupt: sigs,
	})
	if err != nil {
		return withCode(exitError, fmt.Errorf("record: %w", err))
	}
	if err := traceOwner.apply(opts.output); err != nil {
		return withCode(exitError, err)
	}
	if !opts.quiet {
		fmt.Fprintf(s.err, "envbisect: observed %d calls in %d processes (%d threads) to %s (%s, %s)\n",
			sum.Calls, sum.Procs, sum.Threads, opts.output, humanBytes(sum.Bytes), sum.Backend)
	}
	warnLost(s, sum.Lost)
	return nil
}

// warnLost says loudly what an eBPF recording lost: those calls cannot be
// replayed.
func warnLost(s streams, l *trace.Losses) {
	if l.Any() {
		fmt.Fprintf(s.err, "envbisect: WARNING: the trace is incomplete, %s: locate executes those calls instead of "+
			"replaying them; record again with a larger --ring-size\n", render.LossesString(l))
	}
}

// warnOverBudget says which files kept only their hash because
// --max-content was spent (not when it was 0: the user asked for that).
func warnOverBudget(s streams, sum *record.Summary) {
	if len(sum.OverBudget) == 0 || sum.MaxContent == 0 {
		return
	}
	const listed = 5
	var names []string
	for i, f := range sum.OverBudget {
		if i == listed {
			names = append(names, fmt.Sprintf("and %d more", len(sum.OverBudget)-listed))
			break
		}
		names = append(names, fmt.Sprintf("%s (%s)", f.Path, humanBytes(f.Size)))
	}
	files, their := "files", "their"
	if len(sum.OverBudget) == 1 {
		files, their = "file", "its"
	}
	s.warn(fmt.Sprintf("record: %d %s over --max-content %s kept only %s hash: %s; raise --max-content to keep them",
		len(sum.OverBudget), files, humanBytes(int64(sum.MaxContent)), their, strings.Join(names, ", ")))
}
