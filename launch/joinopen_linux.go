package launch

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// joinFiles are the descriptors spawnHelper opens on the target before
// anything is joined.
type joinFiles struct {
	join   *trace.Join
	pidNS  *os.File // nil: the target shares our pid namespace
	ns     []nsFile // the helper's namespaces that differ from ours
	root   *os.File // nil: the target shares our mount namespace and root
	cgroup *os.File // nil: no CgroupDir
	dir    string
}

type nsFile struct {
	nsKind
	f *os.File
}

// openJoin opens what the helper needs to enter cfg.Join's target.
// cfg.Warn hears of what cannot be joined but does not stop the run.
func openJoin(cfg *Config) (*joinFiles, error) {
	j := cfg.Join
	if j.PID <= 0 {
		return nil, fmt.Errorf("join: no process given (pid %d)", j.PID)
	}
	jf := &joinFiles{join: j, dir: cfg.Dir}
	ok := false
	defer func() {
		if !ok {
			jf.close()
		}
	}()
	if same, err := sameNamespace(j.PID, "user"); err != nil {
		return nil, err
	} else if !same {
		return nil, fmt.Errorf("join %s: %w", j.Describe(), ErrForeignUserNS)
	}
	if same, err := sameNamespace(j.PID, "time"); err == nil && !same && cfg.Warn != nil {
		cfg.Warn(fmt.Sprintf("%s has its own time namespace, which a multithreaded program cannot join: the command sees the host's clocks", j.Describe()))
	}
	f, err := openNamespace(j.PID, "pid")
	if err != nil {
		return nil, err
	}
	jf.pidNS = f
	for _, k := range helperNamespaces() {
		f, err := openNamespace(j.PID, k.name)
		if err != nil {
			return nil, err
		}
		if f != nil {
			jf.ns = append(jf.ns, nsFile{k, f})
		}
	}
	if jf.root, err = os.OpenFile(fmt.Sprintf("/proc/%d/root", j.PID), os.O_RDONLY|unix.O_DIRECTORY, 0); err != nil {
		return nil, joinError(j, "open its root directory", err)
	}
	if jf.sameRoot() {
		jf.root.Close() // nothing to chroot to, and no privilege needed for it
		jf.root = nil
	}
	if j.CgroupDir != "" && !sameCgroup(j.PID) {
		if jf.cgroup, err = os.OpenFile(j.CgroupDir, os.O_RDONLY|unix.O_DIRECTORY, 0); err != nil {
			return nil, joinError(j, "open its cgroup", err)
		}
	}
	ok = true
	return jf, nil
}

// sameNamespace reports whether pid is in our namespace of kind name.
func sameNamespace(pid int, name string) (bool, error) {
	var theirs, ours unix.Stat_t
	if err := unix.Stat(fmt.Sprintf("/proc/%d/ns/%s", pid, name), &theirs); err != nil {
		if errors.Is(err, unix.ENOENT) && name == "time" {
			return true, nil // a kernel without time namespaces
		}
		return false, joinError(&trace.Join{PID: pid}, "read its "+name+" namespace", err)
	}
	if err := unix.Stat("/proc/self/ns/"+name, &ours); err != nil {
		return false, fmt.Errorf("read our %s namespace: %w", name, err)
	}
	return theirs.Ino == ours.Ino && theirs.Dev == ours.Dev, nil
}

// openNamespace opens pid's namespace of kind name, or returns nil when
// it is ours. The comparison is made on the opened file, so the process
// cannot change namespaces in between.
func openNamespace(pid int, name string) (*os.File, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/ns/%s", pid, name))
	if err != nil {
		return nil, joinError(&trace.Join{PID: pid}, "open its "+name+" namespace", err)
	}
	var theirs, ours unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &theirs); err != nil {
		f.Close()
		return nil, fmt.Errorf("stat the %s namespace of pid %d: %w", name, pid, err)
	}
	if err := unix.Stat("/proc/self/ns/"+name, &ours); err != nil {
		f.Close()
		return nil, fmt.Errorf("read our %s namespace: %w", name, err)
	}
	if theirs.Ino == ours.Ino && theirs.Dev == ours.Dev {
		f.Close()
		return nil, nil
	}
	return f, nil
}

// sameRoot reports whether the target shares our mount namespace and
// root directory.
func (jf *joinFiles) sameRoot() bool {
	for _, n := range jf.ns {
		if n.flag == unix.CLONE_NEWNS {
			return false
		}
	}
	var theirs, ours unix.Stat_t
	if unix.Fstat(int(jf.root.Fd()), &theirs) != nil || unix.Stat("/", &ours) != nil {
		return false
	}
	return theirs.Dev == ours.Dev && theirs.Ino == ours.Ino
}

// sameCgroup reports whether pid is in our cgroup v2 cgroup: then the
// helper is born in it without CLONE_INTO_CGROUP, which would need write
// access to it.
func sameCgroup(pid int) bool {
	line := func(path string) string {
		b, _ := os.ReadFile(path)
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "0::") {
				return l
			}
		}
		return ""
	}
	theirs := line(fmt.Sprintf("/proc/%d/cgroup", pid))
	return theirs != "" && theirs == line("/proc/self/cgroup")
}

// close closes every descriptor; the helper has its own copies.
func (jf *joinFiles) close() {
	for _, f := range append([]*os.File{jf.pidNS, jf.root, jf.cgroup}, nsFiles(jf.ns)...) {
		if f != nil {
			f.Close()
		}
	}
}

func nsFiles(ns []nsFile) []*os.File {
	out := make([]*os.File, len(ns))
	for i, n := range ns {
		out[i] = n.f
	}
	return out
}

// unameOf fills u with uname(2) as pid sees it: ours, or with join set,
// the one of pid's uts namespace (its host name), asked from a thread of
// its own that enters that namespace and then exits with it.
func unameOf(join *trace.Join, pid int, u *unix.Utsname) error {
	if join == nil {
		return unix.Uname(u)
	}
	f, err := openNamespace(pid, "uts")
	if err != nil || f == nil {
		return unix.Uname(u)
	}
	defer f.Close()
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread dies in the foreign namespace
		if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWUTS); err != nil {
			done <- err
			return
		}
		done <- unix.Uname(u)
	}()
	return <-done
}

// HostnameIn returns the host name a command started through join sees
// (the target's UTS namespace), or envbisect's own with join nil.
func HostnameIn(join *trace.Join) (string, error) {
	var u unix.Utsname
	pid := 0
	if join != nil {
		pid = join.PID
	}
	if err := unameOf(join, pid, &u); err != nil {
		return "", fmt.Errorf("read the host name: %w", err)
	}
	return unix.ByteSliceToString(u.Nodename[:]), nil
}

// KernelNamesHere returns the kernel's release and version as a command
// a run starts sees them: uname(2) as envbisect gets it, whose persona
// (setarch's UNAME26) the helper passes on; the kernel's, in a container
// too. Keyed as trace.StartUname's items are.
func KernelNamesHere() (map[string]string, error) {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return nil, fmt.Errorf("read the kernel's names: %w", err)
	}
	return map[string]string{"release": unix.ByteSliceToString(u.Release[:]), "version": unix.ByteSliceToString(u.Version[:])}, nil
}
