package envobj

import "github.com/envbisect/envbisect/trace"

// The result of the object search (bisect.LocateObjects) is plain data:
// the search fills it in and package render presents it (as text,
// Markdown, and as the "objects" member of locate's JSON report). It
// lives here, below both, because bisect imports render: the search's
// own package could not be read by its renderer.

// Status is how the object search ended.
type Status string

// The statuses of a Result.
const (
	// Located: a 1-minimal set of causes was found and confirmed; each
	// has its fix.
	Located Status = "located"
	// NoFailure: with nothing put in place the command passed here.
	NoFailure Status = "no-failure"
	// StillFails: with every object that differs here put in place (and
	// every start item given its good value) the command still failed, or
	// nothing that differs here can be put in place: the object search
	// cannot make it pass, names nothing, and the caller falls back to
	// call-level replay (Result.Fallback).
	StillFails Status = "still-fails"
	// Inconclusive: an end of the search could not be judged (its runs
	// were skipped twice).
	Inconclusive Status = "inconclusive"
	// NotRepeatable: a second run with nothing put in place passed
	// (bisect.ObjectOptions.CheckRepeatable): the command is flaky, or
	// depends on state outside the sandbox.
	NotRepeatable Status = "not-repeatable"
	// Unconfirmed: the search ended at causes the confirming runs did not
	// bear out (the causes alone did not pass, or everything but one of
	// them did, or a run was skipped twice); Suspects are what it ended
	// at, Disagreeing the steps that did not confirm them.
	Unconfirmed Status = "unconfirmed"
)

// Mechanism names how a located cause was found (LocateReport's
// "mechanism").
const (
	// Materialized: runs put the good environment's objects in place and
	// ran the command live (this search).
	Materialized = "materialized"
	// CallLevel: runs replayed recorded calls (bisect.Locate), the
	// fallback.
	CallLevel = "call-level"
)

// Result is what the object search found.
type Result struct {
	Status  Status `json:"status"`
	Message string `json:"message"`
	// Causes are, when Status is Located, a 1-minimal set of causes: with
	// all of them put in place the command passes, and without any one
	// of them (everything else in place) it fails. Each is the highest
	// object, group or start item that is a cause.
	Causes []ResultCause `json:"causes,omitempty"`
	// Fix is, when Status is Located, what to do here to make the
	// command pass: every cause's steps, validated by a run that put
	// exactly these causes in place and passed.
	Fix *Fix `json:"fix,omitempty"`
	// Suspects and Disagreeing are, when Status is Unconfirmed, what the
	// search ended at and the steps (ResultStep.Step) that did not bear
	// it out.
	Suspects    []ResultCause `json:"suspects,omitempty"`
	Disagreeing []int         `json:"disagreeing,omitempty"`
	// Candidates is how many candidates the first level had (packages,
	// directories, objects, start items, the group of modification
	// times); Objects and StartItems how many objects and start items
	// they held.
	Candidates int `json:"candidates"`
	Objects    int `json:"objects"`
	StartItems int `json:"start_items,omitempty"`
	// Unplaced are the objects that differ here and no run put in place:
	// the call-level search may still replay the calls that met them.
	Unplaced []Unplaced `json:"unplaced,omitempty"`
	// Runs are the runs of the search (ends, delta debugging,
	// refinement), ConfirmRuns those of the confirmation, on top of
	// Runs. A request already decided is not run again.
	Runs        int          `json:"runs"`
	ConfirmRuns int          `json:"confirm_runs,omitempty"`
	Steps       []ResultStep `json:"steps"`
	Seconds     float64      `json:"seconds"`
	// Warnings are what the runs warned of, each once.
	Warnings []string `json:"warnings,omitempty"`
}

// Fallback reports whether the caller should search at the call level:
// the object search could not make the command pass, or could not
// confirm what it ended at (causes each of which alone is enough, such
// as two modification times that both decide, are not a 1-minimal set
// every member of which is needed; the calls may still name one).
func (r *Result) Fallback() bool { return r.Status == StillFails || r.Status == Unconfirmed }

// ResultCause is one cause the object search found: a package, a
// directory, an object or a start item, with what differs and its fix.
type ResultCause struct {
	// Kind is the group's kind (package, directory, object, mtime), or
	// "start" for a start item.
	Kind string `json:"kind"`
	// Name is what it is: "package python3-yaml 6.0-3 (dpkg)",
	// "directory /etc/app.d", "/tmp", "env TZ".
	Name string `json:"name"`
	// Says is what differs, both states in words: "/tmp is drwxr-xr-x
	// here, drwxrwxrwt in the good run", "python3-yaml 6.0-3 is not
	// installed here (41 files)", "file /etc/app.d/extra.conf exists only
	// here".
	Says    string         `json:"says"`
	Path    string         `json:"path,omitempty"`
	Package *trace.Package `json:"package,omitempty"`
	Start   *StartValue    `json:"start,omitempty"`
	// Objects are the cause's objects (for a group, every one of them).
	Objects []Object `json:"objects,omitempty"`
	// FirstSeq is the first recorded call that met the cause (the
	// earliest of its objects'), 0 when none did or for a start item;
	// FirstCall is that call as show prints it, when the caller adds it.
	FirstSeq  uint64 `json:"first_seq,omitempty"`
	FirstCall string `json:"first_call,omitempty"`
	// Observed is what a traced run here (with nothing in place) showed
	// of the cause: the call that tells it apart and what it gave here,
	// and the explanation built from it; nil when no such run was made
	// (a start item, or the run could not be made).
	Observed *Observed `json:"observed,omitempty"`
	// Fix are the steps that give the cause its good state here.
	Fix []FixStep `json:"fix"`
}

// Observed is a cause as a traced run here met it.
type Observed struct {
	// Seq is the recorded call that tells the cause apart here (the
	// first that met it, or a later call on it whose answer differs),
	// Call that call as recorded, as show prints it.
	Seq  uint64 `json:"seq,omitempty"`
	Call string `json:"call,omitempty"`
	// Good is its result in the good run, Here in the run here ("did not
	// happen here" when the program never made it), as show prints them.
	Good string `json:"good,omitempty"`
	Here string `json:"here,omitempty"`
	// Explanation says why, in a sentence or two (locate's culprit's).
	Explanation string `json:"explanation"`
	// Met counts the recorded calls that met the cause (on any of its
	// objects: a package's files, a directory's entries), with the
	// process that met it first and the programs that did: one root
	// for many calls. Nil for a start item.
	Met *Met `json:"met,omitempty"`
}

// Met is the evidence of a cause: the calls that met it.
type Met struct {
	// Who is the process that met it first, as show prints it ("[3]"),
	// Program the image it ran.
	Who     string `json:"who"`
	Program string `json:"program,omitempty"`
	// Calls is how many recorded calls met it; Programs the programs
	// that made them, in the order they first met it.
	Calls    int      `json:"calls"`
	Programs []string `json:"programs"`
}

// MetAt is the first recorded call that met the cause: FirstSeq, or for
// a held address the bind that bound it in the good run; 0 when no call
// did (another start item).
func (c *ResultCause) MetAt() uint64 {
	if c.FirstSeq != 0 {
		return c.FirstSeq
	}
	if c.Start != nil {
		for _, a := range c.Start.Addresses {
			if a.BoundAt != 0 {
				return a.BoundAt
			}
		}
	}
	return 0
}

// InPlaceNothing is ResultStep.InPlace of a run that put nothing in
// place.
const InPlaceNothing = "nothing"

// The ResultCause.Kind of a start item.
const KindStart = "start"

// Fix is what to do here to make the command pass.
type Fix struct {
	// Steps are the causes' fix steps, in the order of Causes.
	Steps []FixStep `json:"steps"`
	// Validated: a run with exactly this change, the causes put in place
	// and nothing else, passed (ValidatedBy, the step); the search never
	// gives a fix it did not run.
	Validated   bool `json:"validated"`
	ValidatedBy int  `json:"validated_by,omitempty"`
	// Note says what the validating run did differently from the steps,
	// when it did: a package's files were put in place, where its
	// manager also runs its scripts and installs what it depends on.
	Note string `json:"note,omitempty"`
}

// ResultStep is one run of the object search.
type ResultStep struct {
	// Step is the search step the run belongs to, 1-based; repeated runs
	// of one step share it.
	Step int `json:"step"`
	// Role is "" for the search proper (the ends, delta debugging over
	// the candidates, the refinement of a group) or "confirm".
	Role string `json:"role,omitempty"`
	// InPlace says what the run put in place: "nothing", "everything",
	// "package python3-yaml 6.0-3 (dpkg) + env TZ", "all but /tmp";
	// Objects and Start count the objects and start items.
	InPlace string `json:"in_place"`
	Objects int    `json:"objects"`
	Start   int    `json:"start,omitempty"`
	// Verdict ("pass", "fail", "skip"), Detail, Exit and Seconds are the
	// run's outcome; Exit is the command's exit status when it exited.
	Verdict string  `json:"verdict"`
	Detail  string  `json:"detail"`
	Exit    *int    `json:"exit,omitempty"`
	Seconds float64 `json:"seconds"`
	// Stops are the system calls that stopped the command, for a run
	// that put a kernel answer in place (the kernel release: the command
	// ran under ptrace with a seccomp filter that stops those calls and
	// no other, ["uname"]); empty for a run that was not traced at all.
	Stops []string `json:"stops,omitempty"`
	// Taken and Note are set on the last run of each step: the verdict
	// the search took for it, and how when more than one run decided it
	// (a repeat, a re-run of a verdict that contradicted an earlier
	// step).
	Taken string `json:"taken,omitempty"`
	Note  string `json:"note,omitempty"`
	// Narrowed: the run's isolation was narrowed to where the recording
	// wrote (writable mounts bound read-only, sandbox.Spec.Narrow); a
	// confirming run never is.
	Narrowed bool `json:"narrowed,omitempty"`
}
