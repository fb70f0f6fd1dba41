package main

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/bisect"
)

// runLogs is where the command's output goes in locate's runs: with
// --logs DIR, one file per run in DIR, named by the run's number and
// role ("run-003-search.log", "run-012-confirm.log"); without, envbisect's
// stderr. Never stdout: that holds the report alone.
type runLogs struct {
	dir string // "": stderr
}

// prepare makes the directory of the logs, and checks that this process
// may create the logs' files in it, before the first run: a directory
// that cannot take them is a usage error (exit 2), found out at once.
func (l runLogs) prepare() error {
	if l.dir == "" {
		return nil
	}
	if err := os.MkdirAll(l.dir, 0o755); err != nil {
		return usageError("--logs %s: cannot make the directory of the logs (%w): give a directory you can write", l.dir, err)
	}
	if err := unix.Access(l.dir, unix.W_OK|unix.X_OK); err != nil {
		return usageError("--logs %s: cannot create the logs' files there (%w): give a directory you can write", l.dir, err)
	}
	return nil
}

// name is the file of run r's log.
func (l runLogs) name(r bisect.Request) string {
	role := r.Role
	if role == "" {
		role = "search"
	}
	return filepath.Join(l.dir, fmt.Sprintf("run-%03d-%s.log", r.Run, role))
}

// open returns the file that takes run r's standard output and error,
// and the function that closes it.
func (l runLogs) open(r bisect.Request) (*os.File, func(), error) {
	if l.dir == "" {
		return os.Stderr, func() {}, nil
	}
	f, err := os.OpenFile(l.name(r), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("log of run %d: %w", r.Run, err)
	}
	return f, func() { f.Close() }, nil
}
