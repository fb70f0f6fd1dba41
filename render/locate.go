package render

import (
	"encoding/json"
	"fmt"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/verdict"
)

// LocateReport is the result of Locate: what `envbisect locate --json` prints
// and WriteText prints for people.
type LocateReport struct {
	// SchemaVersion is LocateSchemaVersion: the version of this form
	// (docs/json.md, docs/locate.schema.json).
	SchemaVersion int          `json:"schema_version"`
	Status        LocateStatus `json:"status"`
	Message       string       `json:"message"`
	// Command is the command the runs ran (Options.Command, else the
	// recorded one).
	Command []string `json:"command,omitempty"`
	// Culprit and Group are set when Status is Located.
	Culprit *Culprit      `json:"culprit,omitempty"`
	Group   *CulpritGroup `json:"group,omitempty"`
	// Causes are, when Status is Located, every cause in the order found,
	// each confirmed: a 1-minimal set whose replay makes the command pass
	// here. Culprit is Causes[0].
	Causes []*Culprit `json:"causes,omitempty"`
	// Suspect is, when Status is Unconfirmed, what the search ended at;
	// Disagreeing are the steps (LocateStep.Step) whose verdicts did not
	// confirm it.
	Suspect     *Culprit `json:"suspect,omitempty"`
	Disagreeing []int    `json:"disagreeing,omitempty"`
	// CauseLimit is set when the search stopped at its limit of causes
	// (Status Unconfirmed): with the causes found so far replayed
	// together the command still failed here, so more remain, and none is
	// named. It is not flakiness: more runs per step would not help.
	CauseLimit *CauseLimit `json:"cause_limit,omitempty"`
	// Candidates are, when Status is Inconclusive after the ends held,
	// the calls one of which makes the difference: the search could not
	// narrow them down further.
	Candidates []uint64 `json:"candidates,omitempty"`
	// Divergences are those of the run that decided a ReplayStillFails
	// report: a run that diverged from the recording executed more than
	// was asked for.
	Divergences []Divergence `json:"divergences,omitempty"`
	// Runs is the number of runs the search made (the ends and the
	// bisection), RecordedCalls the calls of the trace, ReplayableCalls
	// the candidate calls the search runs over.
	Runs int `json:"runs"`
	// RepeatRuns are the runs of the repeatability check, made on top of
	// Runs (steps noted "repeatability check").
	RepeatRuns int `json:"repeat_runs,omitempty"`
	// ConfirmRuns are the runs that confirmed the causes (steps with
	// Role "confirm"), at most 2 per cause, and CauseRuns those of the
	// search for further causes and of the check that they are
	// 1-minimal (Role "cause"); both on top of Runs. A run the search had
	// already made for the same request is not made again.
	ConfirmRuns     int `json:"confirm_runs,omitempty"`
	CauseRuns       int `json:"cause_runs,omitempty"`
	RecordedCalls   int `json:"recorded_calls"`
	ReplayableCalls int `json:"replayable_calls"`
	// StartItems is how many start items (environment variables, umask,
	// limits) differed and were candidates before the calls.
	StartItems int `json:"start_items,omitempty"`
	// Space is what the search ran over: the start items and resources
	// that differ here, or (falling back) every replayable call.
	Space   *SearchSpace `json:"space,omitempty"`
	Steps   []LocateStep `json:"steps"`
	Seconds float64      `json:"seconds"`
	// Lost is what the recording lost (an eBPF trace whose ring buffer
	// filled): lost and incomplete calls execute in every run, so none
	// of them can be the culprit named.
	Lost *trace.Losses `json:"lost,omitempty"`
	// NotServed are the recorded opens whose file a replay would have
	// handed out from the trace, for calls that execute on it, and the
	// execs whose image a replay would have run, but whose content the
	// trace does not keep: they ran for real in every run that replayed
	// them, so this environment's file is what the program read or ran
	// there. Each says why and the record flag that would keep it.
	NotServed []NotServed `json:"not_served,omitempty"`
	// Unseen is what the recorded run did that envbisect cannot see or
	// let it do: io_uring, a ptrace of its own (locate_unseen.go).
	Unseen []UnseenUse `json:"unseen,omitempty"`
	// Warnings are what the tracer warned of in the runs, each once, in
	// the order first said: a set-user-ID, set-group-ID or
	// file-capability program that ran without its privilege (so the
	// runs differ from runs without envbisect), processes a run left
	// running. locate also says each on stderr, once.
	Warnings []string `json:"warnings,omitempty"`
	// Unapplied are the start items of the process's identity that differ
	// here and that no run could give their good value (a capability
	// outside envbisect's bounding set, a seccomp filter, a read-only
	// mount, a cgroup limit, a resource limit above the hard one here
	// without CAP_SYS_RESOURCE): they were not candidates (a limit runs
	// could set in part is a candidate with that part), and are listed so
	// that none is dropped silently.
	Unapplied []StartItem `json:"unapplied,omitempty"`
	// Cause is set when an item of Unapplied explains the error of the
	// culprit, or, without one, of a call that failed in the run with
	// everything replayed, or else in the run with nothing replayed
	// (ExplainCall; Cause.Run says which).
	Cause *Cause `json:"cause,omitempty"`
	// Roots are, when Status is Located, what causes share: one item of
	// the process's identity (a seccomp filter, a capability, a mount's
	// flag) that explains each of their errors here, named once with the
	// calls that met it as evidence, counted (locate_roots.go).
	Roots []Root `json:"roots,omitempty"`
	// Isolation says whether each run had a throwaway copy of the file
	// system (locate's sandbox) and what it did not isolate; "" when not
	// told.
	Isolation string `json:"isolation,omitempty"`
	// Mechanism says how the answer was found when locate searched over
	// the objects that differ here first: "materialized" (runs put the
	// good environment's objects in place and ran the command live;
	// Objects holds the causes, each with its fix) or "call-level" (runs
	// replayed recorded calls, because the object search could not make
	// the command pass; Objects says why, and which objects no run could
	// put in place). "" when locate searched over calls only.
	Mechanism string `json:"mechanism,omitempty"`
	// Objects is the object search's result (bisect.LocateObjects).
	Objects *envobj.Result `json:"objects,omitempty"`

	// For the text form: the candidates as show prints them, and the
	// trace's name for suggested commands. Not in JSON.
	CandidateLines []string `json:"-"`
	TracePath      string   `json:"-"`
	// RunFlags say where and how the runs were made (--container, --pid,
	// --user, the verdict flags): every command the text suggests
	// carries them. Not in JSON.
	RunFlags []string `json:"-"`
	// Verbose: the text lists every run's divergences under its step
	// (locate -v); without it the step table is one line per run.
	Verbose bool `json:"-"`
}

// LocateSchemaVersion is the version of the JSON form of LocateReport
// that this envbisect writes. It changes when a member changes meaning or
// goes away; new members do not change it (readers ignore members they
// do not know).
const LocateSchemaVersion = 1

// ExitCode is the exit status of `envbisect locate` for the report: 0
// when a culprit was located, 3 otherwise.
func (r *LocateReport) ExitCode() int {
	if r.Status == Located {
		return 0
	}
	return 3
}

// LocateStep is one run of the search.
type LocateStep struct {
	// Step is the search step the run belongs to, 1-based; repeated runs
	// of one step (Options.Repeat, re-runs) share it.
	Step int `json:"step"`
	// Round is the parallel round the run belonged to (locate --jobs N
	// with N > 1): the runs of one round went at once. 0 when sequential.
	Round int `json:"round,omitempty"`
	// Index is the prefix index: the first Index candidate calls were
	// asked to be replayed.
	Index int `json:"index"`
	// Prefix is the seq of the last call asked to be replayed (0: none).
	// When All is set every call was asked to be replayed and Prefix is
	// the trace's last call.
	Prefix uint64 `json:"prefix"`
	All    bool   `json:"all,omitempty"`
	// Start is how many start items were asked to be replayed.
	Start int `json:"start,omitempty"`
	// Resources is, in a search over the resources that differ here
	// (SearchSpace.Over "differing"), how many of them were asked to be
	// replayed: the first Resources of SearchSpace.Resources, every call
	// of each. Prefix is 0 then.
	Resources int `json:"resources,omitempty"`
	// Except is how many start items and resources a confirmation run
	// left out of what it replays (all but the cause it confirms).
	Except int `json:"except,omitempty"`
	// Role is "" for a run of the search proper, RoleConfirm or
	// RoleCause.
	Role string `json:"role,omitempty"`
	// Verdict, Detail, Seconds and Divergences are the run's Outcome.
	Verdict     verdict.Verdict `json:"verdict"`
	Detail      string          `json:"detail"`
	Seconds     float64         `json:"seconds"`
	Divergences []Divergence    `json:"divergences,omitempty"`
	// Taint says why the run's outcome can be an artifact of replay
	// (Outcome.Taint); its Verdict is then Skip whatever the command gave.
	Taint string `json:"taint,omitempty"`
	// Taken is set on the last run of each step: the verdict the search
	// took for the step (see Options.Repeat and the package doc on
	// divergences); Note says how it was reached when more than one run
	// decided it.
	Taken verdict.Verdict `json:"taken,omitempty"`
	Note  string          `json:"note,omitempty"`
}

// Replayed says what the step asked to be replayed: "none", "all",
// "up to 21".
func (s *LocateStep) Replayed() string {
	but := ""
	if s.Except > 0 {
		but = fmt.Sprintf(" but %d", s.Except)
	}
	if s.All {
		return ReplayedText(0, AllCalls) + but
	}
	if s.Resources > 0 {
		return ResourcesText(s.Start, s.Resources) + but
	}
	return ReplayedText(s.Start, s.Prefix) + but
}

// Culprit is the located call, with what it gave in the good environment
// (the recording) and here (the run in which it executed and the command
// failed).
type Culprit struct {
	Seq    uint64 `json:"seq"`
	Proc   uint32 `json:"proc"`
	Thread uint32 `json:"thread"`
	// Who is the caller as show prints it: "[1]", "[2:5]".
	Who string `json:"who"`
	// Exe is the image the process ran, when the trace's events were
	// given.
	Exe     string `json:"exe,omitempty"`
	Syscall string `json:"syscall"`
	// Call is the recorded call as show prints it.
	Call string `json:"call"`
	Path string `json:"path,omitempty"`
	// HerePath is, when the command started here in another working
	// directory than the recording's (neither holding the other) and Path
	// is under the recorded one, the same name under the one here: the
	// file this environment has and the user must look at (the recorded
	// one may be there too, unchanged). The calls are compared as if made
	// in the recorded directory, so Path is the recorded name.
	HerePath string `json:"here_path,omitempty"`
	// Resource is the title of the call's group: "file /etc/app.conf".
	Resource string     `json:"resource,omitempty"`
	Good     CallResult `json:"good"`
	Here     CallResult `json:"here"`
	// Start is set, and the call fields are not, when the culprit is a
	// start item: the command's environment, umask or a limit.
	Start *StartItem `json:"start,omitempty"`
	// DataDiff is set when the call's output data differs.
	DataDiff *DataDiff `json:"data_diff,omitempty"`
	// Content is set when the culprit opened a file that the trace keeps
	// (replayed, it hands out the good environment's file) and succeeded
	// here too: the file's content is what differs, and Content is
	// the first later call on the file whose result differs in the
	// failing run (a read, with its data diff), as evidence.
	Content *Culprit `json:"content,omitempty"`
	// DNS is set when the call is of a DNS exchange (a query to a DNS
	// server and its answer): the answer that differs here, decoded on
	// both sides.
	DNS *DNSExchange `json:"dns,omitempty"`
	// Image is, for an exec that ran an image the trace holds (systable's
	// ServesImage), that image: replayed, the exec ran it in place of
	// what the path names here.
	Image *trace.FileObject `json:"image,omitempty"`
	// Explanation says, in one or two sentences built from what
	// envbisect observed (Explain), how the call's resource differs
	// here: the missing component of a path, the modes and ids of a
	// denied one, the content, the holder of an address, a start item's
	// two values. Facts are the observations it is built from.
	Explanation string `json:"explanation,omitempty"`
	Facts       *Facts `json:"facts,omitempty"`
	// Differs says how the call's resource differs here, as the call
	// shows it (DiffersContent, DiffersErrno ...; CauseTitle words it).
	Differs string `json:"differs,omitempty"`
	// Flip is what the search found to flip the verdict, kept as
	// evidence: the culprit is the first call of the flip's resource
	// whose result differs here (locate_firstdiff.go).
	Flip *Flip `json:"flip,omitempty"`
	// Unreplayed is set when the search named the call at its fail end,
	// with no run that replayed it: its error is explained by an identity
	// item no run can give (LocateReport.Cause: a capability outside the
	// bounding set), and a run that replayed it would hand the program a
	// stand-in for the object it makes, or could not start it at all.
	Unreplayed bool `json:"unreplayed,omitempty"`
}

// CallResult is what one call gave: in the recording (good) or live here.
type CallResult struct {
	// Missing: the call did not happen in the run here (the live program
	// took another path before it). Nothing else is set.
	Missing bool `json:"missing,omitempty"`
	// Ret is the raw return value (-errno on failure); nil when the call
	// never returned.
	Ret      *int64 `json:"ret,omitempty"`
	NoReturn bool   `json:"no_return,omitempty"`
	// Errno is the error's name, "ENOENT", or "" on success: in JSON,
	// null (MarshalJSON).
	Errno string `json:"errno"`
	// Denied: the process's seccomp filter answered the call with the
	// error; it never ran.
	Denied bool `json:"denied,omitempty"`
	// Return is the result as show prints it: "10", "-1 ENOENT (No such
	// file or directory)", "?".
	Return string `json:"return"`
	// Call is the whole call as show prints it.
	Call string `json:"call,omitempty"`
	// Data holds the memory the kernel wrote (the call's Out buffers), by
	// argument name ("buf", "statbuf", "msg.name").
	Data map[string]CallBuffer `json:"data,omitempty"`
}

// MarshalJSON writes a missing result as {"missing": true} alone, and
// the errno of a call that succeeded as null.
func (r CallResult) MarshalJSON() ([]byte, error) {
	if r.Missing {
		return []byte(`{"missing":true}`), nil
	}
	type plain CallResult
	var errno *string
	if r.Errno != "" {
		errno = &r.Errno
	}
	return json.Marshal(struct {
		plain
		Errno *string `json:"errno"` // shadows plain's
	}{plain(r), errno})
}

// CallBuffer is one captured buffer.
type CallBuffer struct {
	// Len is the buffer's length as the kernel used it; Data holds what
	// was stored of it, as text ("utf8") or "base64".
	Len       uint64 `json:"len"`
	Data      string `json:"data"`
	Encoding  string `json:"encoding"`
	Truncated bool   `json:"truncated,omitempty"`
	Excluded  bool   `json:"excluded,omitempty"`
	Fault     bool   `json:"fault,omitempty"`
}

// DataDiff says how the first differing output buffer differs.
type DataDiff struct {
	Buffer string `json:"buffer"` // its key in Result.Data
	// Text: both sides read as text; Diff then holds a unified diff
	// (go-udiff): "--- good", "+++ here", "@@ -l,s +l,s @@" hunks of ' ',
	// '-' and '+' lines.
	Text bool     `json:"text"`
	Diff []string `json:"diff,omitempty"`
	// GoodSize and HereSize are the lengths; FirstDifference is the
	// offset of the first differing byte (or the shorter length).
	GoodSize        uint64 `json:"good_size"`
	HereSize        uint64 `json:"here_size"`
	FirstDifference int    `json:"first_difference"`
	// GoodBytes and HereBytes show, for binary data, the bytes from the
	// first difference as quoted strings.
	GoodBytes string `json:"good_bytes,omitempty"`
	HereBytes string `json:"here_bytes,omitempty"`
	// GoodSHA256 and HereSHA256 are, for binary data, the SHA-256 of each
	// side's stored bytes (hex).
	GoodSHA256 string `json:"good_sha256,omitempty"`
	HereSHA256 string `json:"here_sha256,omitempty"`
	// Fields are, for a binary buffer of a struct envbisect decodes
	// (struct stat, statx, rlimit, ...), its members whose values differ,
	// each side as show prints it (a time as a date), leaving out those
	// that differ between any two runs unless programs decide by them
	// (StructDiff).
	Fields []FieldDiff `json:"fields,omitempty"`
	// Struct is the C type of such a buffer ("struct stat"), decoded on
	// both sides: its difference is in the members, not in content.
	Struct string `json:"struct,omitempty"`
	// Partial: a side was stored only in part (a capture limit): the
	// comparison covers the stored bytes.
	Partial bool `json:"partial,omitempty"`
	// Entries is, for a directory listing (the records getdents fills
	// in), the entries that differ by name: the report says them, not
	// the records' bytes.
	Entries *DirEntries `json:"entries,omitempty"`
}

// DirEntries are the names a directory listing holds on one side only,
// over the listing calls of the directory that both runs made ("." and
// ".." left out), sorted. Both empty: the same names, in another order
// or with other inode numbers.
type DirEntries struct {
	// OnlyHere are listed here and were not in the good run;
	// OnlyGood were listed in the good run and are not here.
	OnlyHere []string `json:"only_here,omitempty"`
	OnlyGood []string `json:"only_good,omitempty"`
}

// CulpritGroup is the group of linked calls the culprit is in: "the file
// /etc/app.conf", "connection to tcp 127.0.0.1:5432".
type CulpritGroup struct {
	ID    depgraph.GroupID   `json:"id"`
	Kind  depgraph.GroupKind `json:"kind"`
	Title string             `json:"title"`
	Calls []GroupCall        `json:"calls"`
}

// GroupCall is one call of a group.
type GroupCall struct {
	Seq     uint64 `json:"seq"`
	Syscall string `json:"syscall"`
}

// NotServed is a recorded open whose file, or exec whose image, could
// not be served.
type NotServed struct {
	Seq  uint64 `json:"seq"`
	Path string `json:"path"`
	// Why says why the trace lacks the content and the remedy:
	// "content excluded from the trace (record it without an
	// --exclude-content GLOB matching it)".
	Why string `json:"why"`
}

// HerePathWords says, beside a Culprit's HerePath, what it is.
const HerePathWords = "the same name under the working directory here: the recording ran in another directory, and the calls are compared as if made there"
