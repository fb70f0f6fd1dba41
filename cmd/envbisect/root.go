package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// Exit codes shared by all commands. record exits with the command's own
// status instead (see its help).
const (
	exitOK       = 0
	exitError    = 1 // an error: bad trace, I/O, permission
	exitUsage    = 2 // bad flags or arguments
	exitNotFound = 127
	// exitNotLocated: locate could not name a cause; replay: the run did not pass.
	exitNotLocated = 3
)

// exitError carries a specific exit code out of a command.
type exitCodeError struct {
	code int
	err  error // nil: exit silently with code
}

func (e *exitCodeError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}
func (e *exitCodeError) Unwrap() error { return e.err }

// withCode makes err end the program with code.
func withCode(code int, err error) error { return &exitCodeError{code: code, err: err} }

// usageError marks err as a usage error (exit 2).
func usageError(format string, args ...any) error {
	return withCode(exitUsage, fmt.Errorf(format, args...))
}

// streams are the command's standard streams, injectable for tests.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

func newRootCommand(s streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "envbisect",
		Short: "git bisect for environments: find the system call that makes a command fail here",
		Long: `envbisect records a command's system calls where it works, then runs it
where it fails with parts of the good environment put back (files,
packages, environment variables, ...; recorded calls when those cannot
tell) and names what in this environment makes the difference, with a
fix validated by a run.

  envbisect record -o good.envb -- make test     # where it works
  envbisect show good.envb                       # read the trace
  envbisect locate good.envb -- make test        # where it fails: what differs that matters

Where it fails in a container, or fails another way than its exit status:

  envbisect locate --container ci-runner good.envb -- make test
  envbisect locate --alive 5s --check 'curl -sf http://127.0.0.1:8080/' good.envb -- ./server

Exit status of locate: 0 located, 3 not located, 1 an error or
interrupted, 2 bad usage (envbisect locate --help).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       versionOf(),
	}
	root.SetVersionTemplate("{{.Version}}")
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.err)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return withCode(exitUsage, fmt.Errorf("%w (see '%s --help')", err, c.CommandPath()))
	})
	root.AddCommand(
		newRecordCommand(s),
		newShowCommand(s),
		newDiffCommand(s),
		newSyscallsCommand(s),
		newDepsCommand(s),
		newReplayCommand(s),
		newLocateCommand(s),
		newRecorderCommand(s),
	)
	return root
}

// run executes the CLI and returns the process exit code.
func run(args []string, in io.Reader, out, errw io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	root := newRootCommand(streams{in: in, out: out, err: errw})
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ce *exitCodeError
	if errors.As(err, &ce) {
		if ce.err != nil {
			fmt.Fprintf(errw, "envbisect: %v\n", ce.err)
		}
		return ce.code
	}
	fmt.Fprintf(errw, "envbisect: %v\n", err)
	if isUsage(err) {
		return exitUsage
	}
	return exitError
}

// isUsage reports whether err is cobra's complaint about the command line.
func isUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// versionOf is the text of --version for this binary.
func versionOf() string {
	bi, ok := debug.ReadBuildInfo()
	return versionText(bi, ok, stampedRevision())
}
