package main

import (
	"os"

	"github.com/spf13/pflag"

	"github.com/envbisect/envbisect/verdict"
)

// verdictFlags are the flags record, replay and locate share to say when
// a run of the command passes.
type verdictFlags struct {
	spec verdict.Spec
}

func (v *verdictFlags) add(f *pflag.FlagSet) {
	f.StringVar(&v.spec.Check, "check", "", "judge each run by `CMD`'s exit status (run with sh -c after the command exits, or while it runs with --alive): 0 pass, 125 skip, other fail")
	f.DurationVar(&v.spec.Alive, "alive", 0, "the command passes if it is still running after `DURATION` (a daemon that came up); it is then stopped")
	f.DurationVar(&v.spec.Timeout, "timeout", 0, "stop a run that lasts longer than `DURATION`; it fails")
	f.BoolVar(&v.spec.WaitChildren, "wait-children", false, "end a run when every process the command started has exited, not when the command's own process does")
}

// given reports whether any verdict flag was given.
func (v *verdictFlags) given() bool {
	return v.spec != (verdict.Spec{})
}

// validate checks the flags' values.
func (v *verdictFlags) validate() error {
	if err := v.spec.Validate(); err != nil {
		return usageError("%v", err)
	}
	return nil
}

// verdictHelp is the part of --help that explains the verdict flags.
const verdictHelp = `A run passes as with 'git bisect run': the command exits 0. Exit status 125
means "cannot tell" (the run is skipped), anything else fails. --check CMD
judges by CMD's exit status instead, run with sh -c after the command
exits, in the run's sandbox (it sees the files the command wrote). --alive DURATION is for daemons: the run passes when the command is
still running after DURATION (with --check, when CMD run at that moment
exits 0), and is then stopped. --timeout DURATION fails a run that takes
longer. Without --alive, a run ends when the command's own process exits:
processes it left running (a daemon started with setsid) are stopped, and
envbisect says which; --wait-children waits for them to exit instead. record
and locate follow the same rule.`

// cmdStdout is where the command's standard output goes in the runs of
// replay and locate: with --json, to envbisect's stderr, so that stdout
// holds the JSON alone; else nil, envbisect's own stdout.
func cmdStdout(json bool) *os.File {
	if json {
		return os.Stderr
	}
	return nil
}
