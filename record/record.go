package record

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/ebpfrec"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/pkgdb"
	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
	"github.com/envbisect/envbisect/verdict"
)

// Version is written into every trace header.
const Version = "envbisect 0.1.0"

// Options says what to record and where.
type Options struct {
	Output    string   // trace file path
	Replace   bool     // replace Output even when it is not a trace (record --force)
	Argv      []string // the command
	Env       []string // its environment; nil: envbisect's own
	Dir       string   // its working directory; "": envbisect's own
	ASLR      bool     // leave address randomisation on
	NoSeccomp bool     // stop at every call (PTRACE_SYSCALL) even where seccomp works
	Exclude   []string // globs of paths whose contents stay out of the trace
	// ExcludeEnv are globs on variables' names whose values stay out of
	// the trace (with the default secret names, envpolicy.go); KeepEnv
	// names variables whose values are kept all the same.
	ExcludeEnv, KeepEnv []string
	MaxCapture          uint64 // bytes kept per buffer; 0 = all
	// MaxContent bounds the raw bytes of file content the trace keeps
	// (file objects, ptrace backend); 0 means DefaultMaxContent. Files
	// that would go past it keep only their identity and hash.
	MaxContent uint64
	// NoContent keeps only the identity and hash of every file
	// (--max-content 0).
	NoContent bool
	// ContentCache is the directory of a content cache shared by
	// recordings (tracefile.ContentCache; the CLI's default is
	// launch.ContentCacheDir): a file whose version an earlier recording
	// stored is copied from it instead of being read, hashed and
	// compressed again. It is only read while the command runs, and
	// brought up to date (made, if need be) after it has exited
	// (cacheupdate.go). "": no cache.
	ContentCache string
	// ContentCacheSize bounds the cache's bytes; 0:
	// tracefile.DefaultContentCacheSize.
	ContentCacheSize int64
	CPU              int  // pin the tracer and the command to this CPU; -1: don't (see launch.DefaultCPU)
	NoVDSO           bool // make time queries system calls (see ptrace.Config.NoVDSO)
	// Join runs the command inside a container (ptrace.Config.Join);
	// Env and Dir are then the container's, and Argv[0] is looked up
	// in its PATH. A --check still runs on the host.
	Join *trace.Join
	// Sandbox, when set, records the command in a throwaway view of the
	// file system (launch.Config.Sandbox): nothing it writes survives.
	Sandbox *sandbox.Spec
	// Backend is trace.BackendEBPF for the eBPF recorder; "" (or a ptrace
	// backend's name) records under ptrace.
	Backend string
	// RingSize is the eBPF recorder's ring buffer size in bytes; 0: the
	// default.
	RingSize int
	// OpenProbe, when set, gives the eBPF recording its records instead
	// of a probe loaded for it (ebpfrec.Options.Open): record tries a
	// resident recorder this way (package recorder).
	OpenProbe func(bpf.Options) (ebpfrec.Source, error)

	// Judge, when set, says how the recorded run is judged (and, with
	// Alive or Timeout, when it ends); Summary.Verdict has the outcome.
	// nil: the recording lasts until every traced process has exited,
	// and the run is judged by its exit status.
	Judge *verdict.Spec

	Stdin, Stdout, Stderr *os.File
	// KeepFDs are descriptors of envbisect's own the command gets too, at
	// the same numbers (launch.Config.KeepFDs); the trace's start events
	// name every descriptor it started with.
	KeepFDs   []int
	Interrupt <-chan os.Signal
	Warn      func(string)
}

// Summary describes a finished recording.
type Summary struct {
	ExitCode    int
	Signal      int
	Calls       uint64
	Procs       uint32
	Threads     uint32
	Stops       uint64
	Bytes       int64 // size of the trace file
	Backend     string
	Interrupted bool
	// Verdict is how the recorded run was judged: a trace of a run that
	// did not pass cannot locate anything.
	Verdict verdict.Outcome
	// Lost is what the eBPF recorder lost (nil for ptrace).
	Lost *trace.Losses
	// OverBudget are the files that kept only their hash because
	// MaxContent was spent, largest first.
	OverBudget []trace.FileObject
	// MaxContent is the budget they were over.
	MaxContent uint64
	// Written counts what the trace holds: frames, events, file objects,
	// chunks and their sizes.
	Written tracefile.Stats
	// CacheHits counts the files stored from the content cache, and
	// CacheRefused its entries that did not verify (removed, and the
	// file stored from itself).
	CacheHits, CacheRefused int64
	// CacheUpdate is how long bringing the content cache up to date
	// took, after the command had exited (nothing is written to the
	// cache while it runs).
	CacheUpdate time.Duration
	// Redacted names the variables whose values were kept out of the
	// trace; RedactedBuffers and ExcludedBuffers count the other
	// buffers dropped because they carried such a value or an excluded
	// file's content.
	Redacted                         []string
	RedactedBuffers, ExcludedBuffers uint64
}

// Run records opts.Argv into opts.Output. The trace file is created
// before the command starts, so an unwritable path fails without running
// anything. A command that cannot be found fails with a *launch.ExecError
// of code 127.
func Run(opts Options) (*Summary, error) {
	if len(opts.Argv) == 0 {
		return nil, errors.New("no command given")
	}
	path, err := launch.LookPath(opts.Argv[0], opts.Join)
	if err != nil {
		return nil, err
	}
	table, err := systable.Native()
	if err != nil {
		return nil, err
	}
	policy, err := newEnvPolicy(opts.ExcludeEnv, opts.KeepEnv)
	if err != nil {
		return nil, err
	}
	if _, err := launch.NewContentFilter(opts.Exclude); err != nil {
		return nil, err
	}
	env := opts.Env
	if env == nil && opts.Join == nil {
		env = os.Environ()
	}
	cwd := opts.Dir
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	judgeCwd, judgeEnv := cwd, env
	if opts.Join != nil {
		judgeCwd, judgeEnv = "", nil // the check runs on the host
		if cwd = opts.Dir; cwd == "" {
			cwd = "/"
		}
	}
	hdr := newHeader(table, opts.Exclude, opts.MaxCapture, opts.Join)
	hdr.Command, hdr.Cwd = opts.Argv, cwd
	hdr.ExcludeEnv, hdr.KeepEnv = opts.ExcludeEnv, opts.KeepEnv
	if hdr.Salt, err = trace.NewSalt(); err != nil {
		return nil, err
	}
	hdr.ASLR, hdr.NoVDSO = opts.ASLR, opts.NoVDSO
	hdr.Backend = ptrace.BackendFor(opts.NoSeccomp)
	ebpf := opts.Backend == trace.BackendEBPF
	if ebpf {
		hdr.Backend = trace.BackendEBPF
		hdr.MaxCapture = ebpfrec.MaxCapture(opts.MaxCapture)
		hdr.RingSize = uint64(ebpfrec.RingSize(opts.RingSize))
	}
	w, err := tracefile.Options{Replace: opts.Replace}.Create(opts.Output, hdr)
	if err != nil {
		return nil, err
	}
	b := newBatcher(w)
	g, err := newGuard(newParentStats(b, table), table, opts.Exclude, policy, hdr.Salt, opts.Warn)
	if err != nil {
		b.close()
		w.Discard()
		return nil, err
	}
	maxContent := opts.MaxContent
	if maxContent == 0 {
		maxContent = DefaultMaxContent
	}
	if opts.NoContent {
		maxContent = 0
	}
	var content *contentStore
	if ebpf {
		if opts.Warn != nil && !opts.NoContent {
			opts.Warn("record --backend ebpf: its traces hold no file contents yet (locate cannot serve the good environment's files from them); record with the ptrace backend to keep them")
		}
	} else {
		var cache *tracefile.ContentCache
		if opts.ContentCache != "" && !opts.NoContent {
			if cache, err = tracefile.OpenContentCache(opts.ContentCache, opts.ContentCacheSize); err != nil && opts.Warn != nil {
				opts.Warn(fmt.Sprintf("record: %v; recording without it", err))
			}
		}
		if content, err = newContentStore(w, opts.Exclude, maxContent, cache, pkgdb.OpenWhole(opts.Join.Root()), opts.Join.Root(), opts.ContentCache); err != nil {
			b.close()
			w.Discard()
			return nil, err
		}
		content.guard = g.content
	}
	spec := verdict.Spec{}
	if opts.Judge != nil {
		spec = *opts.Judge
	}
	// The same rule as locate's runs: the command's exit ends the run
	// (processes it left running are ended, and Warn says which) unless
	// the spec says to wait for them.
	watch := spec.Watch()
	var observer launch.Observer = g
	if opts.Warn != nil {
		observer = &unseenWarner{Observer: observer, find: render.NewUnseenFinder(table), warn: opts.Warn}
	}
	if content != nil && content.cache != nil {
		observer = newCacheReachWarner(observer, content.cache.Dir(), opts.Join, opts.Warn)
	}
	cfg := ptrace.Config{
		Config: launch.Config{
			Watch: watch,
			Path:  path, Argv: opts.Argv, Env: env, Dir: opts.Dir, Join: opts.Join,
			Table: table, ASLR: opts.ASLR, Sandbox: opts.Sandbox,
			MaxCapture: opts.MaxCapture, Exclude: opts.Exclude, CPU: opts.CPU,
			Stdin: opts.Stdin, Stdout: opts.Stdout, Stderr: opts.Stderr, KeepFDs: opts.KeepFDs,
			Observer: observer, Interrupt: opts.Interrupt, Warn: opts.Warn,
		},
		NoSeccomp: opts.NoSeccomp, NoVDSO: opts.NoVDSO,
	}
	if content != nil {
		cfg.Files = content
	}
	var res *trace.RunResult
	var lost *trace.Losses
	var runErr error
	if ebpf {
		res, lost, runErr = ebpfrec.Run(cfg.Config, ebpfrec.Options{RingSize: opts.RingSize, Open: opts.OpenProbe})
	} else {
		spread := launch.SpreadLater()
		res, runErr = ptrace.Run(cfg)
		// The command has ended: the contents still queued may be
		// compressed on the CPU it was pinned to as well.
		spread()
	}
	written, writeErr := b.close()
	var over []trace.FileObject
	if content != nil {
		var err error
		over, err = content.close()
		if writeErr == nil {
			writeErr = err
		}
		if content.ownerErr != nil && opts.Warn != nil {
			opts.Warn(fmt.Sprintf("record: the packages owning the libraries and executables are not in the trace: %v", content.ownerErr))
		}
	}
	if runErr != nil {
		var ee *launch.ExecError
		var ce *launch.CompatError
		if content != nil && written > 0 {
			content.update.apply(opts.Interrupt) // what was stored is good all the same
		}
		if written == 0 || errors.As(runErr, &ee) || errors.As(runErr, &ce) {
			// Nothing ran, or the run was refused (32-bit calls,
			// which no trace can hold): leave no trace behind, and
			// an earlier trace at the output as it was. A trace is
			// only "cut short" when its recording was.
			w.Discard()
		} else {
			w.Abort()
		}
		return nil, runErr
	}
	sum := &Summary{
		ExitCode: res.ExitCode, Signal: res.Signal, Calls: res.Calls, Procs: res.Procs,
		Threads: res.Threads, Stops: res.Stops, Backend: res.Backend, Interrupted: res.Interrupted,
		Verdict: spec.Judge(context.Background(), res, judgeCwd, judgeEnv), Lost: lost,
		OverBudget: over, MaxContent: maxContent,
	}
	if content != nil {
		sum.CacheHits, sum.CacheRefused = content.hits.Load(), content.refused.Load()
		// The command has exited and its check has run: nothing that
		// judges the run sees the cache change (launch/places.go).
		sum.CacheUpdate = content.update.apply(opts.Interrupt)
	}
	sum.Redacted, sum.RedactedBuffers, sum.ExcludedBuffers = g.counts()
	if writeErr != nil {
		w.Abort()
		return sum, fmt.Errorf("trace %s is incomplete: it holds the first %d events (the command ran to its end, with status %d), then: %w",
			opts.Output, written, sum.ExitCode, writeErr)
	}
	end := &trace.End{
		Finished: time.Now().UTC(), ExitCode: res.ExitCode, Signal: res.Signal,
		Calls: res.Calls, Procs: res.Procs, Threads: res.Threads, Stops: res.Stops,
		Interrupted: res.Interrupted, Verdict: sum.Verdict.Verdict.String(), Lost: lost,
		Redacted: sum.Redacted, RedactedBuffers: sum.RedactedBuffers, ExcludedBuffers: sum.ExcludedBuffers,
	}
	if err := w.Close(end); err != nil {
		return sum, fmt.Errorf("finish trace %s: %w", opts.Output, err)
	}
	sum.Written = w.Stats()
	if fi, err := os.Stat(opts.Output); err == nil {
		sum.Bytes = fi.Size()
	}
	return sum, nil
}

// newHeader starts the header of a trace recorded here now: who, where
// and with what limits; the caller fills in the command and backend.
func newHeader(table *systable.Table, exclude []string, maxCapture uint64, join *trace.Join) *trace.Header {
	host, _ := os.Hostname()
	var u unix.Utsname
	unix.Uname(&u)
	h := &trace.Header{
		Tool: Version, Arch: ptrace.Arch, Kernel: unix.ByteSliceToString(u.Release[:]), Host: host,
		Started: time.Now().UTC(), Filtered: table.NoStop(), Exclude: exclude, MaxCapture: maxCapture,
		Signals: true,
	}
	if join != nil {
		h.Container = join.Name // "container web (0844870a481a)", "pid 4242"
	}
	return h
}
