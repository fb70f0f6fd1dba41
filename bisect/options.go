package bisect

import (
	"net/netip"

	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// Options tune Locate. The zero Options run each step once and render
// calls with the graph's syscall table.
type Options struct {
	// Command is the command the runs run here (argv); the report's
	// suggestions use it. nil: the recorded one, from Header.
	Command []string
	// Start are the start items that differ between the recording and
	// here, in the order to try them: candidates before every call.
	Start []StartItem
	// Repeat runs every step this many times and takes the majority
	// verdict; a tie gets one more run, and a tie after it makes the step
	// a skip. 0 and 1 run each step once.
	Repeat int
	// CheckRepeatable runs the fail end (nothing replayed) a second time
	// before the search and a third time after it: when a run that
	// replays nothing passes, the search ends as NotRepeatable. Each
	// check is a step of its own in the report.
	CheckRepeatable bool
	// Isolation is copied into the report: whether runs were isolated
	// (locate's sandbox) and what was not.
	Isolation string
	// Jobs is how many runs go at once: with more than 1, the search is
	// (Jobs+1)-ary, each round running Jobs prefixes together (the ends
	// together in the first), and Run is called from several goroutines.
	// 0 and 1 search sequentially.
	Jobs int
	// Progress, if not nil, is called before and after every run (never
	// concurrently).
	Progress func(Progress)
	// Rows renders calls in the report; nil uses the graph's table.
	Rows render.Rows
	// Header is the trace's header: the command, for the report. May be
	// nil.
	Header *trace.Header
	// Events are the trace's events, the ones the graph was built from.
	// They give the report the culprit's image (exe) and its process's
	// main thread; nil leaves the exe out.
	Events []trace.Event
	// EachEvent, when set, passes over the trace's events in order
	// instead of Events (a tracefile.Store's Each: the events stay in
	// the trace file); it stops at its function's first error and
	// returns it.
	EachEvent func(fn func(ev *trace.Event) error) error
	// Files returns the trace's file object id (tracefile's Trace.File),
	// for the report: the image an exec culprit ran. nil leaves it out.
	Files func(id uint32) *trace.FileObject
	// TracePath is the trace file's name, for the commands the report
	// suggests; "" writes TRACE.
	TracePath string
	// Lost is the trace's End.Lost, for the report.
	Lost *trace.Losses
	// RunFlags are the flags that say where and how the runs were made
	// (--container, --pid, --user, the verdict flags): every command the
	// report suggests carries them, so that copied as printed it runs
	// where locate's runs did.
	RunFlags []string
	// RanAs says how the runs were made ("joined container web as docker
	// exec would, as its configured user"); the no-failure report says
	// it. "": nothing to add.
	RanAs string
	// Unapplied are the identity start items that differ here and no
	// run could apply (the caller may have said them in docker's words):
	// the report lists them and names one as the cause when it explains
	// the culprit's error (identity.go).
	Unapplied []StartItem
	// Recorded are the recording's start events (the trace's Start) and
	// Here what the command starts with here (its credentials, umask,
	// limits): the explanation of a denied call says who it ran as from
	// them (explain.go). Either may be nil.
	Recorded []trace.StartEvent
	Here     []trace.StartEvent
	// AddressHolder, if not nil, finds the process that holds an IP
	// address here now (launch.AddressHolder in the CLI): the
	// explanation of a bind that failed with EADDRINUSE names it.
	AddressHolder func(netip.AddrPort) (pid int, exe string, err error)
	// PackageOwner, if not nil, finds the package that owns a path (or
	// resolved, the path with the good environment's links followed) in
	// the package database of the environment the runs saw (a pkgdb.DB
	// on its root in the CLI): nil without a database, a Package with no
	// Name when none owns it. The explanation of a library or
	// executable that differs or is missing here names it beside the
	// owner record found (FileObject.Package).
	PackageOwner func(path, resolved string) (*trace.Package, error)
	// StatHere, if not nil, stats a directory as the environment the
	// runs saw has it now: the explanation of a call denied here gives
	// the modes of the parents no stat call of the failing run showed,
	// beside those record stored (Call.Dirs).
	StatHere func(path string) (mode, uid, gid uint32, err error)
	// ContentHere, if not nil, is the SHA-256 of the file at path as the
	// environment the runs saw has it: a call on a file the trace keeps
	// (Call.Obj) answers as recorded only when the file here has the
	// kept content (a mapped library's bytes show in no result).
	ContentHere func(path string) (trace.Hash, error)
	// ResolveHere, if not nil, follows the symbolic links of path in the
	// environment the runs saw: the explanation of a file whose content
	// differs says where a link led on each side.
	ResolveHere func(path string) (string, error)
}

// Progress tells the caller where the search is. It is sent twice per
// run: before it (Done false, Outcome zero) and after it.
type Progress struct {
	Step  int // the search step, 1-based; a step's repeated runs share it
	Round int // the parallel round (Options.Jobs > 1), 1-based; 0 in a sequential search
	Steps int // about how many steps the search takes in all (it can grow with skips)
	Run   int // the run, 1-based, counting every run of every step
	// Index is the prefix index: Index of the Candidates calls are asked
	// to be replayed; Candidates is how many there are.
	Index, Candidates int
	Request           Request
	Done              bool
	Outcome           Outcome // after the run: what it gave
}

// jobs is how many runs go at once.
func (o *Options) jobs() int { return max(1, o.Jobs) }

// repeat is how many runs each step takes at first.
func (o *Options) repeat() int { return max(1, o.Repeat) }
