package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
)

// --keep-fds: CMD gets descriptors 0, 1 and 2 only, like docker exec,
// whatever envbisect inherited; --keep-fds N passes envbisect's own
// descriptor N too, at the same number. record, replay and locate take
// it alike, and the trace names the descriptors CMD started with.

// keepFDsFlag is --keep-fds as given: repeatable, or a comma list.
type keepFDsFlag struct {
	given []string
}

func (k *keepFDsFlag) add(f *pflag.FlagSet) {
	f.StringSliceVar(&k.given, "keep-fds", nil, "pass envbisect's own descriptor `N` to CMD too, at the same number "+
		"(repeatable, or N,N...); otherwise CMD gets 0, 1 and 2 only, like docker exec, whatever envbisect inherited")
}

// resolve returns the descriptors to pass, sorted: a number that is not
// a descriptor, or one that envbisect does not have open, is a usage
// error (exit 2).
func (k *keepFDsFlag) resolve() ([]int, error) {
	var fds []int
	for _, s := range k.given {
		fd, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || fd < 0 {
			return nil, usageError("--keep-fds %q: give descriptor numbers, such as 3 or 3,251", s)
		}
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil {
			return nil, usageError("--keep-fds %d: envbisect has no descriptor %d open to pass on "+
				"(open it where envbisect is started, e.g. %d<FILE or %d>&1 in a shell)", fd, fd, fd, fd)
		}
		fds = append(fds, fd)
	}
	slices.Sort(fds)
	return slices.Compact(fds), nil
}

// keepFDsArgs returns --keep-fds as resolved, for the commands envbisect
// suggests.
func keepFDsArgs(fds []int) []string {
	if len(fds) == 0 {
		return nil
	}
	return []string{"--keep-fds", strings.Join(numbers(fds), ",")}
}

// numbers returns fds as decimal strings.
func numbers(fds []int) []string {
	s := make([]string, len(fds))
	for i, fd := range fds {
		s[i] = strconv.Itoa(fd)
	}
	return s
}

// warnOtherFDs warns when the runs give CMD other descriptors than the
// recording did (its start events, recorded: nil for a trace from before
// they were noted): a program that uses an inherited descriptor fails
// without it for envbisect's doing, not the environment's. Only the
// numbers are compared: what they refer to differs between any two runs.
func warnOtherFDs(s streams, recorded []trace.StartEvent, keep []int) {
	had := trace.StartFDs(recorded)
	if had == nil {
		return
	}
	slices.Sort(had)
	runs := launch.CommandFDs(keep)
	if slices.Equal(had, runs) {
		return
	}
	var extra []int
	for _, fd := range had {
		if fd > 2 {
			extra = append(extra, fd)
		}
	}
	remedy := "give --keep-fds " + strings.Join(numbers(extra), ",") + " to pass the same"
	if len(extra) == 0 {
		remedy = "drop --keep-fds to pass the same"
	}
	s.warn(fmt.Sprintf("CMD started with descriptors %s in the recording, and gets %s in these runs: %s",
		fdList(had), fdList(runs), remedy))
}

// fdList is "0, 1, 2 and 251".
func fdList(fds []int) string {
	s := numbers(fds)
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// keptFiles returns a child's ExtraFiles that give it descriptors keep
// (those from 3 up) at their own numbers, the numbers between closed, and
// close, which closes this process's copies once the child started. The
// child's own descriptors go after them, from 3+len(files).
func keptFiles(keep []int) (files []*os.File, closeAll func(), err error) {
	closeAll = func() {
		for _, f := range files {
			if f != nil {
				f.Close()
			}
		}
	}
	for _, fd := range keep {
		if fd < 3 {
			continue
		}
		for len(files) < fd-3 {
			files = append(files, nil)
		}
		dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("pass descriptor %d on: %w", fd, err)
		}
		files = append(files, os.NewFile(uintptr(dup), "kept-"+strconv.Itoa(fd)))
	}
	return files, closeAll, nil
}
