package envdiff

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// valueNamespaces are the namespaces whose tunables /proc/sys shows as
// those of the process that reads it (net.*, kernel.hostname, the IPC
// limits), not of the mount it is read through: a container's values
// are read from a thread that joined its namespaces.
func valueNamespaces() []struct {
	name string
	flag int
} {
	return []struct {
		name string
		flag int
	}{{"net", unix.CLONE_NEWNET}, {"uts", unix.CLONE_NEWUTS}, {"ipc", unix.CLONE_NEWIPC}}
}

// values reads the tunables paths here, inside the root, each up to max
// bytes, with its stat; a path missing here is in neither map. For a
// container's root (/proc/PID/root) the reads are made by a thread in
// the namespaces of that process, which then ends.
func (r *rootFS) values(paths []string, max int) (map[string]hereValue, map[string]error) {
	out, errs := map[string]hereValue{}, map[string]error{}
	if len(paths) == 0 {
		return out, errs
	}
	pid, inContainer := rootPID(r.root)
	if !inContainer {
		r.readValues(paths, max, out, errs)
		return out, errs
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		// The thread's namespaces change: it is never unlocked, so it
		// ends with this goroutine instead of running others.
		runtime.LockOSThread()
		if err := joinValueNamespaces(pid); err != nil {
			for _, p := range paths {
				errs[p] = err
			}
			return
		}
		r.readValues(paths, max, out, errs)
	}()
	<-done
	return out, errs
}

// rootPID is the process of a root /proc/PID/root.
func rootPID(root string) (int, bool) {
	s, ok := strings.CutPrefix(root, "/proc/")
	if !ok {
		return 0, false
	}
	s, ok = strings.CutSuffix(s, "/root")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(s)
	return pid, err == nil && pid > 0
}

// joinValueNamespaces moves the calling thread into pid's namespaces
// of valueNamespaces (one it is in already is left as it is).
func joinValueNamespaces(pid int) error {
	for _, ns := range valueNamespaces() {
		theirs := fmt.Sprintf("/proc/%d/ns/%s", pid, ns.name)
		a, errA := os.Readlink(theirs)
		b, errB := os.Readlink("/proc/thread-self/ns/" + ns.name)
		if errA == nil && errB == nil && a == b {
			continue
		}
		fd, err := unix.Open(theirs, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("the %s namespace of process %d: %w", ns.name, pid, err)
		}
		err = unix.Setns(fd, ns.flag)
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("join the %s namespace of process %d to read its tunables: %w", ns.name, pid, err)
		}
	}
	return nil
}

// readValues reads each of paths inside the root into out, or its error
// into errs.
func (r *rootFS) readValues(paths []string, max int, out map[string]hereValue, errs map[string]error) {
	for _, p := range paths {
		v, ok, err := r.readValue(p, max)
		switch {
		case err != nil:
			errs[p] = err
		case ok:
			out[p] = v
		}
	}
}

// readValue reads p (up to max bytes) and stats it; ok false when it is
// missing.
func (r *rootFS) readValue(p string, max int) (hereValue, bool, error) {
	fd, err := r.open(p, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY)
	switch {
	case missing(err):
		return hereValue{}, false, nil
	case err != nil:
		return hereValue{}, false, fmt.Errorf("read %s: %w", p, err)
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return hereValue{}, false, fmt.Errorf("stat %s: %w", p, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return hereValue{}, false, fmt.Errorf("%s is not a regular file here", p)
	}
	b, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil && !errors.Is(err, io.EOF) {
		return hereValue{}, false, fmt.Errorf("read %s: %w", p, err)
	}
	if len(b) > max {
		return hereValue{}, false, errValueTooLong(p, max)
	}
	return hereValue{value: b, st: fromStat(&st)}, true, nil
}
