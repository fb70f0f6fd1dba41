package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Scenario is one end-to-end case: a command, its two environments, and
// what locate must say about them.
type Scenario struct {
	// Name is short and unique: a subtest name and a bench row.
	Name string
	// Issue is the case's number in the issue's test list (1-10; the two
	// endpoint checks share 8).
	Issue int
	// Summary says in one sentence what the case is about.
	Summary string
	// Differs says how the bad environment differs from the good one.
	Differs string

	// Victims are the C sources under testdata/victims the command runs;
	// Prepare builds each into WORK/bin/NAME (NAME: the file name without
	// ".c"), dynamically linked.
	Victims []string
	// NeedsPort: Prepare picks a free TCP port on 127.0.0.1 (Work.Port).
	NeedsPort bool
	// Setup writes the environments into Work.Good and Work.Bad, which
	// exist and are empty.
	Setup func(w *Work) error
	// Command is the command's argv, the same in both environments.
	Command func(w *Work) []string
	// BadArgs are arguments added to the command in the bad environment:
	// its input differs, which is not the environment locate looks at.
	// locate and replay refuse a command line other than the recorded
	// one, so their runs of such a scenario pass --force (badArgsFlags).
	BadArgs []string
	// BadEnv are NAME=VALUE variables added to the environment of every
	// run in the bad environment (locate, replay, a native bad run).
	BadEnv []string
	// Occupy, when set, makes the bad environment in something other than
	// files: it is started before a bad run and released after it (a
	// listener holding the command's port). See Work.Hold.
	Occupy func(w *Work) (release func(), err error)
	// Verdict are the flags that judge a run, given to locate and replay
	// (e.g. --alive 2s).
	Verdict []string

	// Want is what must come out.
	Want Want
	// Repeat is how many times a test records and locates the case (at
	// least once): the timing-dependent case repeats to show it is
	// located run after run.
	Repeat int
	// Timeout bounds one locate of the case (0: DefaultTimeout).
	Timeout time.Duration
}

// DefaultTimeout bounds one locate when Scenario.Timeout is 0.
const DefaultTimeout = 3 * time.Minute

// Want is the expected outcome of a scenario.
type Want struct {
	// GoodExit and BadExit are the command's exit status when it runs
	// natively (untraced) in the good and in the bad environment.
	GoodExit, BadExit int
	// Status is locate's "status": "located", "no-failure",
	// "replay-still-fails".
	Status string
	// ExitCode is locate's exit status: 0 located, 3 could not locate.
	ExitCode int
	// Culprit is the call locate must name; nil when Status is not
	// "located" (then the JSON report must have no "culprit").
	Culprit *Culprit
	// Divergence, when set, is a divergence every fully replayed run
	// must report (scenario 9).
	Divergence *Divergence
	// Start, when set, is the start item locate must name instead of a
	// call: "env NAME".
	Start string
}

// Culprit describes the culprit call so that it can be found in a trace:
// the first recorded call that matches it is the culprit, whatever its
// sequence number.
type Culprit struct {
	// Syscalls are the accepted syscall names (the libc decides between
	// open and openat, stat and newfstatat).
	Syscalls []string
	// Path is the call's path relative to WORK/env ("run/app.pid"), for a
	// call on an fd the path of the fd's file; "" matches any call
	// (bind has no path).
	Path string
	// Child: the call is made by a process other than the first one (the
	// command itself), e.g. by a child of a shell script.
	Child bool
	// Exe, when set, must occur in the culprit's executable in locate's
	// report ("greetserver").
	Exe string
	// Resource, when set, must occur in locate's "resource" (e.g. the port
	// a bind names); Work's fields are substituted by Expand.
	Resource string
	// BadErrno is the errno of the live call in the bad environment, as
	// locate reports it ("ENOENT", "EADDRINUSE"); "" when the live call
	// succeeds and only its data differ.
	BadErrno string
	// Content: the culprit opens a file whose content differs here (its
	// replay hands out the good file the trace keeps), so the report
	// must show, as the content evidence, a later read of that file
	// whose data differ.
	Content bool
}

// Divergence is a place where the live run in the bad environment makes a
// call that the recording does not have at that place.
type Divergence struct {
	// Recorded is the path (relative to WORK/env) that the recorded calls
	// at the divergence name and the live run never names; none of those
	// recorded calls may ever be replayed.
	Recorded string
	// Live is the path (relative to WORK/env) that the live calls name
	// instead; none of them may ever be replayed.
	Live string
}

// Side is one of the two environments.
type Side int

const (
	// Good is the environment where the command works: record runs here.
	Good Side = iota
	// Bad is the environment where it fails: locate runs here.
	Bad
)

func (s Side) String() string {
	if s == Good {
		return "good"
	}
	return "bad"
}

// Work is a prepared scenario's directory:
//
//	WORK/bin     the built victims
//	WORK/good    the good environment's tree
//	WORK/bad     the bad environment's tree
//	WORK/env     the mount point: the tree the command sees
type Work struct {
	Dir  string // WORK, absolute, without symbolic links
	Bin  string // WORK/bin
	Good string // WORK/good
	Bad  string // WORK/bad
	Env  string // WORK/env
	// Port is a TCP port on 127.0.0.1 that was free when Prepare ran (0
	// unless the scenario needs one).
	Port int
	// Victims maps a victim's name ("fig79") to its binary.
	Victims map[string]string
}

// Tree returns the directory of side's environment.
func (w *Work) Tree(side Side) string {
	if side == Good {
		return w.Good
	}
	return w.Bad
}

// Victim returns the binary built from testdata/victims/NAME.c; it panics
// when the scenario did not list that victim (a bug in the scenario).
func (w *Work) Victim(name string) string {
	p, ok := w.Victims[name]
	if !ok {
		panic("scenarios: victim " + name + " was not built for this scenario")
	}
	return p
}

// EnvPath returns the absolute path the command sees for rel, a path
// relative to WORK/env.
func (w *Work) EnvPath(rel string) string { return filepath.Join(w.Env, rel) }

// Trace returns the path of a trace file named name in WORK.
func (w *Work) Trace(name string) string { return filepath.Join(w.Dir, name) }

// Write creates the file rel (relative to the tree of side) with content,
// and its parent directories.
func (w *Work) Write(side Side, rel, content string) error {
	p := filepath.Join(w.Tree(side), rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(content), 0o644)
}

// WriteBoth writes the same file into both trees.
func (w *Work) WriteBoth(rel, content string) error {
	if err := w.Write(Good, rel, content); err != nil {
		return err
	}
	return w.Write(Bad, rel, content)
}

// Mkdir creates the directory rel in the tree of side.
func (w *Work) Mkdir(side Side, rel string) error {
	return os.MkdirAll(filepath.Join(w.Tree(side), rel), 0o755)
}

// Expand replaces {port}, {env} and {dir} in s with the work's values.
func (w *Work) Expand(s string) string {
	return strings.NewReplacer("{port}", fmt.Sprint(w.Port), "{env}", w.Env, "{dir}", w.Dir).Replace(s)
}

// Hold sets up what the bad environment needs besides its files (a held
// port) and returns the function that releases it; both are no-ops for a
// scenario without Occupy. Call it around every bad run.
func (s *Scenario) Hold(w *Work) (release func(), err error) {
	if s.Occupy == nil {
		return func() {}, nil
	}
	return s.Occupy(w)
}

// Prepare makes dir (which should be empty; it is created if missing) the
// scenario's work directory: it builds the victims from root's
// testdata/victims into dir/bin, picks a port if needed, and writes the two
// environments.
func (s *Scenario) Prepare(root, dir string) (*Work, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if abs, err = filepath.EvalSymlinks(abs); err != nil {
		return nil, err
	}
	w := &Work{
		Dir:     abs,
		Bin:     filepath.Join(abs, "bin"),
		Good:    filepath.Join(abs, "good"),
		Bad:     filepath.Join(abs, "bad"),
		Env:     filepath.Join(abs, "env"),
		Victims: map[string]string{},
	}
	for _, d := range []string{w.Bin, w.Good, w.Bad, w.Env} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	for _, src := range s.Victims {
		bin, err := BuildC(root, src, w.Bin)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", s.Name, err)
		}
		w.Victims[strings.TrimSuffix(filepath.Base(src), ".c")] = bin
	}
	if s.NeedsPort {
		if w.Port, err = FreePort(); err != nil {
			return nil, fmt.Errorf("scenario %s: %w", s.Name, err)
		}
	}
	if s.Setup != nil {
		if err := s.Setup(w); err != nil {
			return nil, fmt.Errorf("scenario %s: set up the environments: %w", s.Name, err)
		}
	}
	return w, nil
}

// scenarioVars are the variables some scenario sets for its bad runs;
// Environ keeps them out of every run unless the scenario sets them, so
// that the caller's environment cannot change an outcome.
var scenarioVars = []string{"SCENARIO_MODE", "APP_PROFILE"}

// Environ returns the environment for a run in side: this process's,
// without the scenarios' variables, plus BadEnv for the bad side.
func (s *Scenario) Environ(side Side) []string {
	var env []string
outer:
	for _, kv := range os.Environ() {
		for _, v := range scenarioVars {
			if strings.HasPrefix(kv, v+"=") {
				continue outer
			}
		}
		env = append(env, kv)
	}
	if side == Bad {
		env = append(env, s.BadEnv...)
	}
	return env
}

// wrapper is the shell text that bind-mounts $1 over $2 and runs the rest.
const wrapper = `mount --bind "$1" "$2" && shift 2 && exec "$@"`

// InEnv returns argv wrapped so that it runs with side's tree mounted over
// WORK/env, in a private mount namespace of its own.
func (w *Work) InEnv(side Side, argv ...string) []string {
	out := []string{"unshare", "--mount", "--propagation", "private", "--", "sh", "-c", wrapper, "sh", w.Tree(side), w.Env}
	return append(out, argv...)
}

// NativeArgv is the command run untraced in side.
func (s *Scenario) NativeArgv(w *Work, side Side) []string {
	return w.InEnv(side, s.commandIn(w, side)...)
}

// RecordArgv is `envbisect record -o TRACE [extra...] -- CMD` in the good
// environment.
func (s *Scenario) RecordArgv(w *Work, envbisect, trace string, extra ...string) []string {
	return s.RecordIn(Good, w, envbisect, trace, extra...)
}

// RecordIn is `envbisect record -o TRACE [extra...] -- CMD` in side (a
// recording in the bad environment shows how the culprit fails there).
func (s *Scenario) RecordIn(side Side, w *Work, envbisect, trace string, extra ...string) []string {
	argv := []string{envbisect, "record", "-o", trace}
	argv = append(argv, extra...)
	argv = append(argv, "--")
	return w.InEnv(side, append(argv, s.commandIn(w, side)...)...)
}

// LocateArgv is `envbisect locate TRACE VERDICT... [extra...] -- CMD` in
// the bad environment (extra: --json, --repeat N, ...).
func (s *Scenario) LocateArgv(w *Work, envbisect, trace string, extra ...string) []string {
	argv := []string{envbisect, "locate", trace}
	argv = append(argv, s.Verdict...)
	argv = append(argv, s.badArgsFlags()...)
	argv = append(argv, extra...)
	argv = append(argv, "--")
	return w.InEnv(Bad, append(argv, s.commandIn(w, Bad)...)...)
}

// ReplayArgv is `envbisect replay TRACE --prefix PREFIX VERDICT...
// [extra...] -- CMD` in the bad environment; PREFIX is a number or "all".
func (s *Scenario) ReplayArgv(w *Work, envbisect, trace, prefix string, extra ...string) []string {
	argv := []string{envbisect, "replay", trace, "--prefix", prefix}
	argv = append(argv, s.Verdict...)
	argv = append(argv, s.badArgsFlags()...)
	argv = append(argv, extra...)
	argv = append(argv, "--")
	return w.InEnv(Bad, append(argv, s.commandIn(w, Bad)...)...)
}

// badArgsFlags is --force when the bad runs add arguments to the
// recorded command line, which locate and replay refuse without it.
func (s *Scenario) badArgsFlags() []string {
	if len(s.BadArgs) > 0 {
		return []string{"--force"}
	}
	return nil
}

// commandIn is the command's argv in side.
func (s *Scenario) commandIn(w *Work, side Side) []string {
	argv := s.Command(w)
	if side == Bad {
		argv = append(argv[:len(argv):len(argv)], s.BadArgs...)
	}
	return argv
}

// LocateTimeout is the time one locate of s may take.
func (s *Scenario) LocateTimeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}

// Repeats is how many times a test should record and locate s.
func (s *Scenario) Repeats() int {
	if s.Repeat < 1 {
		return 1
	}
	return s.Repeat
}
