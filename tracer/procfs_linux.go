package tracer

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// readFDLink returns what /proc says fd of tid refers to, or "".
func readFDLink(tid int, fd int32) string {
	name, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%d", tid, fd))
	if err != nil {
		return ""
	}
	return name
}

// ProcFDs returns what /proc says each open fd of process pid refers to
// (empty when the process is gone).
func ProcFDs(pid int) map[int32]string { return readFDTable(pid).m }

// ProcFD returns what /proc says fd of tid refers to, or "".
func ProcFD(tid int, fd int32) string { return readFDLink(tid, fd) }

// readFDTable reads a process's open fds from /proc.
func readFDTable(pid int) *fdTable {
	t := newFDTable()
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return t
	}
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if name, err := os.Readlink(dir + "/" + e.Name()); err == nil {
			t.m[int32(fd)] = name
		}
	}
	return t
}

// tgid returns the thread group of tid from /proc, or 0. The kernel's
// word settles thread-or-process when the creating call's flags could not
// be read.
func tgid(tid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", tid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Tgid:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// reread returns a new table holding the fds /proc lists for pid now,
// keeping what t knew of those it had, so that only new fds cost a
// readlink. Used after an exec, which closes the close-on-exec fds.
func (t *fdTable) reread(pid int) *fdTable {
	n := newFDTable()
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	f, err := os.Open(dir)
	if err != nil {
		return n
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	for _, e := range names {
		fd, err := strconv.Atoi(e)
		if err != nil {
			continue
		}
		if name, ok := t.m[int32(fd)]; ok {
			n.m[int32(fd)] = name
		} else if name, err := os.Readlink(dir + "/" + e); err == nil {
			n.m[int32(fd)] = name
		}
	}
	return n
}

// auxvName names an auxiliary vector key ("AT_HWCAP").
func auxvName(k uint64) string {
	switch k {
	case 3:
		return "AT_PHDR"
	case 4:
		return "AT_PHENT"
	case 5:
		return "AT_PHNUM"
	case 6:
		return "AT_PAGESZ"
	case 7:
		return "AT_BASE"
	case 8:
		return "AT_FLAGS"
	case 9:
		return "AT_ENTRY"
	case 11:
		return "AT_UID"
	case 12:
		return "AT_EUID"
	case 13:
		return "AT_GID"
	case 14:
		return "AT_EGID"
	case 15:
		return "AT_PLATFORM"
	case 16:
		return "AT_HWCAP"
	case 17:
		return "AT_CLKTCK"
	case 23:
		return "AT_SECURE"
	case 24:
		return "AT_BASE_PLATFORM"
	case 25:
		return "AT_RANDOM"
	case 26:
		return "AT_HWCAP2"
	case atExecFn:
		return "AT_EXECFN"
	case atSysinfoEHDR:
		return "AT_SYSINFO_EHDR"
	case 51:
		return "AT_MINSIGSTKSZ"
	}
	return "AT_" + strconv.FormatUint(k, 10)
}

// rlimitNames returns the resources of getrlimit(2), in number order.
func rlimitNames() []string {
	return []string{
		"RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_DATA", "RLIMIT_STACK", "RLIMIT_CORE", "RLIMIT_RSS",
		"RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_MEMLOCK", "RLIMIT_AS", "RLIMIT_LOCKS",
		"RLIMIT_SIGPENDING", "RLIMIT_MSGQUEUE", "RLIMIT_NICE", "RLIMIT_RTPRIO", "RLIMIT_RTTIME",
	}
}

// startEvents reads the state the command inherited and no system call
// shows. Called at the first exec stop, so /proc describes the target.
func (s *session) startEvents(pid int) []trace.StartEvent {
	return startEvents(&s.cfg, pid)
}

// startEvents reads the state process pid, which runs or is about to
// run cfg's command, holds and no system call shows.
func startEvents(cfg *Config, pid int) []trace.StartEvent {
	var ev []trace.StartEvent
	add := func(k trace.StartKind, name, value string) {
		ev = append(ev, trace.StartEvent{Kind: k, Name: name, Value: value})
	}
	for i, a := range cfg.Argv {
		add(trace.StartArgv, strconv.Itoa(i), a)
	}
	for _, kv := range withoutHelperMarker(cfg.Env) {
		k, v, _ := strings.Cut(kv, "=")
		add(trace.StartEnv, k, v)
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/auxv", pid)); err == nil {
		for i := 0; i+16 <= len(b); i += 16 {
			k, v := binary.LittleEndian.Uint64(b[i:]), binary.LittleEndian.Uint64(b[i+8:])
			if k == 0 {
				break
			}
			add(trace.StartAuxv, auxvName(k), "0x"+strconv.FormatUint(v, 16))
		}
	}
	if cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid)); err == nil {
		add(trace.StartCwd, "", cwd)
	}
	if f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			key, val, ok := strings.Cut(sc.Text(), ":")
			if !ok {
				continue
			}
			val = strings.Join(strings.Fields(val), " ")
			switch key {
			case "Umask":
				add(trace.StartUmask, "", val)
			case "Uid":
				add(trace.StartCreds, "uid", val) // real, effective, saved, fs
			case "Gid":
				add(trace.StartCreds, "gid", val)
			case "Groups":
				add(trace.StartCreds, "groups", val)
			default:
				if e, ok := trace.IdentityStatusField(key); ok {
					add(e.Kind, e.Name, val)
				}
			}
		}
		f.Close()
	}
	for i, name := range rlimitNames() {
		var rl unix.Rlimit
		if err := unix.Prlimit(pid, i, nil, &rl); err == nil {
			add(trace.StartRlimit, name, limitString(rl.Cur)+" "+limitString(rl.Max))
		}
	}
	var u unix.Utsname
	if err := unameOf(cfg.Join, pid, &u); err == nil {
		add(trace.StartUname, "sysname", unix.ByteSliceToString(u.Sysname[:]))
		add(trace.StartUname, "release", unix.ByteSliceToString(u.Release[:]))
		add(trace.StartUname, "version", unix.ByteSliceToString(u.Version[:]))
		add(trace.StartUname, "machine", unix.ByteSliceToString(u.Machine[:]))
		add(trace.StartHostname, "", unix.ByteSliceToString(u.Nodename[:]))
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/personality", pid)); err == nil {
		if v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 16, 64); err == nil {
			add(trace.StartPersonality, "", "0x"+strconv.FormatUint(v, 16))
		}
	}
	return append(ev, identityStart(pid, cfg.Join)...)
}

func limitString(v uint64) string {
	if v == unix.RLIM_INFINITY {
		return "unlimited"
	}
	return strconv.FormatUint(v, 10)
}

// fdOpen reports whether process pid has fd open, as the kernel says.
func fdOpen(pid int, fd int32) bool {
	_, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%d", pid, fd))
	return err == nil
}
