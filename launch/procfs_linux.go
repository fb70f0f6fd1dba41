package launch

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

// ProcFD returns what /proc says fd of tid refers to, or "".
func ProcFD(tid int, fd int32) string {
	name, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%d", tid, fd))
	if err != nil {
		return ""
	}
	return name
}

// ProcFDs returns what /proc says each open fd of process pid refers to
// (empty when the process is gone).
func ProcFDs(pid int) map[int32]string {
	t := make(map[int32]string)
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
			t[int32(fd)] = name
		}
	}
	return t
}

// Tgid returns the thread group of tid from /proc, or 0. The kernel's
// word settles thread-or-process when the creating call's flags could not
// be read.
func Tgid(tid int) int {
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
	case 31:
		return "AT_EXECFN"
	case 33:
		return "AT_SYSINFO_EHDR"
	case 51:
		return "AT_MINSIGSTKSZ"
	}
	return "AT_" + strconv.FormatUint(k, 10)
}

// ReadStartEvents reads the state process pid, which runs or is about
// to run cfg's command, holds and no system call shows. The ptrace engine
// calls it at the command's first exec stop, when /proc describes the
// command.
func ReadStartEvents(cfg *Config, pid int) []trace.StartEvent {
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
	for i, name := range trace.RlimitNames() {
		var rl unix.Rlimit
		if err := unix.Prlimit(pid, i, nil, &rl); err == nil {
			add(trace.StartRlimit, name, trace.LimitValue(rl.Cur)+" "+trace.LimitValue(rl.Max))
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
	if sigs, err := procSignals(pid); err == nil {
		ev = append(ev, sigs.Events()...)
	}
	ev = append(ev, fdStart(pid, CommandFDs(cfg.KeepFDs))...)
	ev = append(ev, placementStart(cfg, pid))
	return append(ev, identityStart(pid, cfg.Join)...)
}

// placementStart is the StartCPUs event of a command started with cfg
// as process pid: pinned to cfg.CPU by the helper, or the CPUs pid may
// run on (it inherited them; the eBPF recorder reads them from the
// helper before it execs, the ptrace engine from the command).
func placementStart(cfg *Config, pid int) trace.StartEvent {
	if cfg.CPU >= 0 {
		return trace.StartEvent{Kind: trace.StartCPUs, Name: trace.CPUsPinned, Value: strconv.Itoa(cfg.CPU)}
	}
	return trace.StartEvent{Kind: trace.StartCPUs, Name: trace.CPUsInherited, Value: affinityList(pid)}
}
