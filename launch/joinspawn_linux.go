package launch

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// helperJoinEnv carries the helper's joinSpec (JSON): set, the helper
// enters the target before it reads its configuration.
const helperJoinEnv = "ENVBISECT_HELPER_JOIN"

// helperJoined is the line the helper writes on its error pipe once it is
// inside the target.
const helperJoined = "joined\n"

// joinSpec tells the helper what to enter, by the fds it inherited.
type joinSpec struct {
	NS   []joinNS `json:"ns"`   // in the order to enter them
	Root int      `json:"root"` // the target's root directory; -1: ours
	Dir  string   `json:"dir"`  // the working directory inside it
}

// joinNS is one namespace the helper enters.
type joinNS struct {
	Name string `json:"name"`
	FD   int    `json:"fd"`
	Type int    `json:"type"` // CLONE_NEW*
}

// nsKind is a kind of namespace.
type nsKind struct {
	name string // as in /proc/PID/ns
	flag int    // CLONE_NEW*
}

// helperNamespaces are the namespaces the helper enters itself, on the
// thread that execs the command, in this order: all but the mount
// namespace can be entered by one thread of a multithreaded process, and
// the mount namespace can once that thread has its own fs_struct. The
// mount namespace comes last: it changes how paths resolve.
func helperNamespaces() []nsKind {
	return []nsKind{
		{"cgroup", unix.CLONE_NEWCGROUP}, {"ipc", unix.CLONE_NEWIPC}, {"uts", unix.CLONE_NEWUTS},
		{"net", unix.CLONE_NEWNET}, {"mnt", unix.CLONE_NEWNS},
	}
}

// prepare adds to the helper's attributes what it needs to enter the
// target: the descriptors after its own (the last of attr.Files), the
// joinSpec naming them, and the cgroup to be born in. The working
// directory is the target's, which the helper changes to once inside:
// it stays out of attr.
func (jf *joinFiles) prepare(attr *syscall.ProcAttr) error {
	spec := joinSpec{Dir: jf.dir}
	fd := len(attr.Files)
	for _, n := range jf.ns {
		attr.Files = append(attr.Files, n.f.Fd())
		spec.NS = append(spec.NS, joinNS{Name: n.name, FD: fd, Type: n.flag})
		fd++
	}
	spec.Root = -1
	if jf.root != nil {
		attr.Files = append(attr.Files, jf.root.Fd())
		spec.Root = fd
	}
	b, err := json.Marshal(spec)
	if err != nil {
		return fmt.Errorf("join: %w", err)
	}
	attr.Env = append(attr.Env, helperJoinEnv+"="+string(b))
	attr.Dir = ""
	if jf.cgroup != nil {
		attr.Sys = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: int(jf.cgroup.Fd())}
	}
	return nil
}

// forkExec starts the helper from a thread of its own that has entered
// the target's pid namespace, so that the helper is born in it (setns of
// a pid namespace applies to the caller's children only). The thread is
// locked and never unlocked: it exits with its goroutine instead of going
// back to the Go scheduler in a foreign pid namespace. The helper's
// parent is that thread; when it exits, the helper is handed to another
// thread of envbisect, which any thread, the tracer's too, can wait for
// and ptrace.
func (jf *joinFiles) forkExec(path string, argv []string, attr *syscall.ProcAttr) (int, error) {
	type result struct {
		pid int
		err error
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		if jf.pidNS != nil {
			if err := unix.Setns(int(jf.pidNS.Fd()), unix.CLONE_NEWPID); err != nil {
				done <- result{0, joinError(jf.join, "enter its pid namespace", err)}
				return
			}
		}
		pid, err := syscall.ForkExec(path, argv, attr)
		if err != nil && jf.cgroup != nil {
			err = fmt.Errorf("in cgroup %s: %w", jf.join.CgroupDir, err)
		}
		done <- result{pid, err}
	}()
	r := <-done
	return r.pid, r.err
}

// awaitJoined waits until the helper reports that it is inside the target
// (its first line on the error pipe), so that /proc shows the helper with
// the target's root and working directory from then on. On failure the
// helper has exited; the caller reaps it.
func (h *helperProc) awaitJoined(j *trace.Join) error {
	var line []byte
	b := make([]byte, 1)
	for {
		n, err := h.errR.Read(b)
		if n == 1 {
			line = append(line, b[0])
			if b[0] == '\n' {
				break
			}
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("join %s: read the helper's report: %w", j.Describe(), err)
		}
	}
	if string(line) == helperJoined {
		return nil
	}
	if len(line) == 0 {
		return fmt.Errorf("join %s: the helper exited before entering it", j.Describe())
	}
	_, msg, _ := strings.Cut(string(line), " ")
	return fmt.Errorf("join %s: %s", j.Describe(), msg)
}
