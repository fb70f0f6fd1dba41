package replay

import (
	"fmt"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"golang.org/x/sys/unix"
)

// maxExtraReports bounds the extra calls reported per thread: a polling
// loop that ran longer than recorded makes many, all alike.
const maxExtraReports = 3

// engine is the ptrace.Replayer and launch.Observer of one run: it
// matches each live call to a recorded one and applies the plan.
type engine struct {
	rec       *Recording
	plan      *depgraph.Plan
	tab       *systable.Table
	keyer     *align.Keyer  // keys live calls as if they ran in the recorded working directory
	inherited []inheritedFD // what the command's fds 0, 1, 2 and the kept ones refer to
	bind      *binder

	res     *Result
	listAll bool            // keep every call's record in res.Calls
	noLive  bool            // keep no live call in res.Live (Options.NoLive)
	execs   map[uint64]bool // recorded execs a live call matched
	// echoes: the sockets of echo protocols (netlink, DNS) met so far,
	// by recorded resource (echo.go).
	echoes map[depgraph.ResourceID]*echoSocket
	// observed ends an observation run once the calls it is made for
	// ran live (observe.go); nil: the run goes to its end.
	observed *observation
}

// liveCwd is the physical path the run starts in; the recorded one is the
// kernel's too (the cwd start event, from /proc/PID/cwd), not the header's,
// which is record's os.Getwd and so $PWD's logical path when the shell
// came there through a symbolic link: the recorded calls' paths are the
// kernel's, and keying with a logical path rewrote nothing of them, or
// the live calls' paths to a prefix no recorded call has.
func newEngine(rec *Recording, plan *depgraph.Plan, liveCwd string, window int, listAll bool) *engine {
	return &engine{
		rec: rec, plan: plan, tab: rec.Table,
		keyer:   align.NewKeyer(rec.Table, liveCwd, rec.RecordedCwd()),
		bind:    newBinder(rec, window),
		res:     &Result{Live: newLiveCalls(rec.Graph)},
		listAll: listAll,
		execs:   make(map[uint64]bool),
	}
}

// Start is the launch.Observer's: start events are not replayed.
func (e *engine) Start([]trace.StartEvent) {}

// Event is the launch.Observer's: process and thread life.
func (e *engine) Event(ev trace.Event) {
	if ev.Proc != nil {
		e.bind.procEvent(ev.Proc)
	}
}

// Enter decides about a live call.
func (e *engine) Enter(c *trace.Call) ptrace.Decision {
	row := e.tab.ByNr(int(c.Nr))
	key := liveKey(e.keyer, row, e.inherited, c)
	like := e.keyer.Like(c, key)
	lt, f, fed := e.bind.thread(c, key, like)
	if lt.rec == nil {
		if lt.unmatched() && !lt.reported {
			lt.reported = true
			e.divergence(lt, c, "unmatched")
		}
		e.note(c, 0, depgraph.Execute, "unmatched")
		e.res.Executed++
		return ptrace.Decision{Verb: ptrace.Execute}
	}
	if !fed {
		f = lt.stream.FeedLike(key, like)
	} else {
		// Matched just now: the calls it made while it could still be
		// one of several recorded threads had their recorded keys (or
		// names generated in their place), and happened (a vfork
		// child's execve of a program run twice).
		for i, pos := range lt.rec.calls[:lt.seen-1] {
			rc := e.rec.callAt(pos)
			e.execSeen(e.tab.ByNr(int(rc.Nr)), rc)
			if live, ok := lt.generated[i]; ok && live != rc.Path {
				e.keyer.MapName(live, rc.Path)
			}
		}
	}
	switch f.Verdict {
	case align.Extra:
		e.res.Extra++
		if lt.extras < maxExtraReports {
			e.divergence(lt, c, "extra")
		}
		lt.extras++
		e.note(c, 0, depgraph.Execute, "extra")
		e.res.Executed++
		return ptrace.Decision{Verb: ptrace.Execute}
	case align.Diverged:
		lt.afterDivergence++
		if !lt.diverged {
			lt.diverged = true
			e.divergence(lt, c, "diverged")
		}
		e.note(c, 0, depgraph.Execute, "diverged")
		e.res.Executed++
		return ptrace.Decision{Verb: ptrace.Execute}
	}
	e.res.Unmatched += f.Skipped
	rc := e.rec.callAt(lt.rec.calls[f.Rec])
	if f.Generated {
		// A name made anew in each run (mkstemp's): the later calls on
		// the live name are the recorded name's.
		e.keyer.MapName(c.Path, rc.Path)
	}
	e.execSeen(row, rc)
	action := e.plan.Action(rc.Seq)
	verb := ptrace.Execute
	why := ""
	switch {
	case rc.NoReturn || rc.Restarted() || rc.Incomplete():
		action = depgraph.Execute
		if rc.Incomplete() {
			why = "execute (data lost)" // an eBPF trace's ring buffer was full
		}
	case action == depgraph.Replay && !row.SameInputSize(c.Args, rc.Args):
		// The program hands the kernel another amount of data than the
		// recording did (its pid in a pid file has one digit more): the
		// recorded result answers another request, so the call runs.
		action = depgraph.Execute
		why = "execute (other input size)"
	case action == depgraph.Replay && depgraph.SetsUpServer(row, c.Args):
		// The program's socket really binds and listens (the plan's
		// closure made the socket real); where its address is taken
		// here, the engine binds a free one instead (ptrace's address
		// redirects).
		verb = ptrace.Overwrite
	case action == depgraph.Replay && reshapesFDs(row, c):
		// The kernel's fd table must keep the program's shape: close,
		// dup and friends run (on the stand-ins) and report the recorded
		// result.
		verb = ptrace.Overwrite
	case action == depgraph.Replay && keepsEffect(e.plan, row, c, rc):
		// A call that changed a file-system object runs live first: the
		// program's own effect is kept (the artifact a build writes), the
		// program sees the recorded result, and where a creation cannot
		// happen here the tracer makes it in the run's scratch area and
		// redirects the later calls on its path there.
		verb = ptrace.Overwrite
	case action == depgraph.Replay:
		verb = ptrace.Skip
	case action == depgraph.ExecuteThenOverwrite:
		verb = ptrace.Overwrite
	}
	rec := rc
	verb, rec, why = e.echoDecide(row, c, rc, verb, why)
	// Counted and listed by what happens, which for calls that reshape the
	// fd table is not what the plan asked.
	switch verb {
	case ptrace.Skip:
		e.res.Replayed++
		action = depgraph.Replay
		e.excludedData(c, rc)
	case ptrace.Overwrite:
		e.res.Overwritten++
		action = depgraph.ExecuteThenOverwrite
	default:
		e.res.Executed++
		action = depgraph.Execute
	}
	e.note(c, rc.Seq, action, why)
	return ptrace.Decision{Verb: verb, Rec: rec}
}

// reshapesFDs reports whether a call changes which numbers the fd table
// holds or what becomes of them at an exec: close, close_range, dup,
// dup2, dup3, fcntl F_DUPFD and F_SETFD, ioctl FIOCLEX. Skipped, such a
// call would leave the kernel's table unlike the program's (an fd the
// program closed, or made close-on-exec, would live on into the next
// image).
func reshapesFDs(row *systable.Syscall, c *trace.Call) bool {
	return row.EffectsFor(c.Args)&(systable.ClosesFD|systable.ClosesFDRange|systable.DupsFD|systable.ChangesFDFlags) != 0
}

// keepsEffect reports whether a replayed call changed a file-system
// object in the recording (depgraph's RunsWhenReplayed: mkdir, an open
// with O_CREAT or O_TRUNC, a write into a file, rename, unlink, chmod
// ...) and the live call, made with its own arguments, changes one too:
// such a call runs, its result overwritten (see Enter). The plan's
// closure made what it depends on real by the same rule.
func keepsEffect(p *depgraph.Plan, row *systable.Syscall, c, rc *trace.Call) bool {
	return p.RunsWhenReplayed(rc.Seq) && depgraph.ChangesObject(row, c.Args)
}

// Redirected is the ptrace.RedirectObserver's: a creation that could not
// happen here was made in the run's scratch area.
func (e *engine) Redirected(r trace.Redirect) {
	e.res.Redirects = append(e.res.Redirects, r)
}

// Exit keeps the live results of matched calls that ran. A call that
// ran and was told to try again (EAGAIN, systable's TriesAgain: a read
// or accept on a non-blocking fd) where the recorded one was not
// leaves its recorded call expected again: the program polls and
// retries, and the retry's answer (the bytes a server sent here) is
// what the recording's is compared with; without a retry the EAGAIN
// stays the live result.
func (e *engine) Exit(c *trace.Call, d ptrace.Decision) {
	if d.Rec == nil {
		return
	}
	if !e.noLive {
		e.res.Live.set(d.Rec, kept(e.tab.ByNr(int(c.Nr)), d.Rec, c))
	}
	if e.observed != nil {
		e.observed.saw(d.Rec.Seq)
	}
	if d.Verb == ptrace.Execute && e.tab.ByNr(int(c.Nr)).TriesAgain && c.Errno() == int(unix.EAGAIN) && d.Rec.Errno() != int(unix.EAGAIN) {
		if lt := e.bind.threads[c.Thread]; lt != nil && lt.stream != nil {
			lt.stream.Again()
		}
		return
	}
	e.echoExit(c, d)
}

// divergence reports that live call c of lt did not match its recorded
// call.
func (e *engine) divergence(lt *liveThread, c *trace.Call, kind string) {
	d := Divergence{Kind: kind, Proc: c.Proc, Thread: c.Thread, Got: e.describe(c)}
	if lt.rec != nil {
		d.RecThread = lt.rec.id
		if next := lt.stream.Next(); next < len(lt.rec.calls) {
			rc := e.rec.callAt(lt.rec.calls[next])
			d.AtSeq, d.Expected = rc.Seq, e.describe(rc)
		}
	}
	e.res.Divergences = append(e.res.Divergences, d)
}

func (e *engine) describe(c *trace.Call) string {
	s := e.tab.ByNr(int(c.Nr)).Name
	if c.Path != "" {
		s += " " + c.Path
	}
	if c.Path2 != "" {
		s += " " + c.Path2
	}
	return s
}

// note keeps a line about a live call for replay's listing.
func (e *engine) note(c *trace.Call, seq uint64, a depgraph.Action, why string) {
	if !e.listAll {
		return
	}
	action := a.String()
	if why != "" {
		action = why
	}
	n := CallNote{LiveSeq: c.Seq, Seq: seq, Proc: c.Proc, Thread: c.Thread,
		Syscall: e.tab.ByNr(int(c.Nr)).Name, Path: c.Path, Action: action}
	if why == "" && seq != 0 {
		n.Why = planWhy(e.plan, seq)
	}
	e.res.Calls = append(e.res.Calls, n)
}

// planWhy says why the plan does not replay recorded call seq, when that
// is more than the question (the call was not asked for): "always
// executes", "needed by call 12", "content not kept: /etc/app.conf:
// content excluded from the trace (...); needed by call 14", "image not
// stored: /usr/bin/tool: content excluded from the trace (...)".
func planWhy(p *depgraph.Plan, seq uint64) string {
	r := p.Reason(seq)
	switch r {
	case depgraph.Requested, depgraph.NotRequested:
		return ""
	case depgraph.Needed, depgraph.NotServed:
		by, _ := p.NeededBy(seq)
		if note := p.Note(seq); note != "" {
			return fmt.Sprintf("%s: %s; needed by call %d", r, note, by)
		}
		return fmt.Sprintf("%s by call %d", r, by)
	case depgraph.ImageNotStored:
		if note := p.Note(seq); note != "" {
			return fmt.Sprintf("%s: %s", r, note)
		}
	}
	return r.String()
}

func (d Divergence) String() string {
	s := fmt.Sprintf("[%d:%d] %s: live %s", d.Proc, d.Thread, d.Kind, d.Got)
	if d.Expected != "" {
		s += fmt.Sprintf(", recorded call %d was %s", d.AtSeq, d.Expected)
	}
	return s
}
