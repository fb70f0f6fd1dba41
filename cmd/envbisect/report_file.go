package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/render"
)

// checkReportPath checks, before the first run, that --report's path can
// take the report: its directory exists and this process may create a
// file there, and the path is not a directory. A search takes minutes;
// finding out at its end that the report has nowhere to go would waste
// it. Nothing is created here: an interrupted locate leaves no file.
func checkReportPath(path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usageError("--report %s: directory %s does not exist: create it first (mkdir -p %s) or give another path", path, dir, dir)
	case err != nil:
		return usageError("--report %s: %w", path, err)
	case !st.IsDir():
		return usageError("--report %s: %s is not a directory: give a path in a directory", path, dir)
	}
	if err := unix.Access(dir, unix.W_OK|unix.X_OK); err != nil {
		return usageError("--report %s: cannot create a file in %s (%w): give a path in a directory you can write", path, dir, err)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usageError("--report %s: is a directory: give a file's path, such as %s", path, filepath.Join(path, "report.json"))
	}
	return nil
}

// deliverReport prints rep on stdout in format and writes it as JSON to
// path (--report, when given), and returns the exit status rep calls
// for. When the file cannot be written (the disk is full, its directory
// was removed during the search), the report is not lost: stdout has it
// all the same, and the error says where it could not go (exit 1).
func deliverReport(s streams, format reportFormat, path string, rep *render.LocateReport) error {
	fileErr := writeReportFile(path, rep)
	if err := format.writeReport(s.out, rep); err != nil {
		return withCode(exitError, err)
	}
	if fileErr != nil {
		return withCode(exitError, fmt.Errorf("%w; the report is on stdout only", fileErr))
	}
	return withCode(rep.ExitCode(), nil)
}

// writeReportFile writes rep as JSON to path (--report), when given: to a
// new file in path's directory, renamed to path once whole, so that a
// write that fails leaves no half report and a report of an earlier
// locate at path as it was.
func writeReportFile(path string, rep *render.LocateReport) error {
	if path == "" {
		return nil
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("--report %s: could not write the report: %w", path, err)
	}
	tmp := f.Name()
	err = formatJSON.writeReport(f, rep)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("--report %s: could not write the report: %w", path, err)
	}
	return nil
}
