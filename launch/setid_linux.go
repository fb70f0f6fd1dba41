package launch

import (
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// UnhonouredPrivilege says, for a process that has just exec'd (at its
// exec stop), which privilege of its new image the exec did not give it:
// a set-user-ID file whose owner is not the process's effective user, a
// set-group-ID file whose group is not its effective group, file
// capabilities (within its bounding set) missing from its permitted set.
// Under ptrace the kernel honours them only when the tracer may (it had
// CAP_SYS_PTRACE over the command's user namespace when it attached) and
// no_new_privs is off; a nosuid mount drops them too. The recording is
// then of another run than one without envbisect. "" when nothing was
// withheld, or the files in /proc cannot be read.
func UnhonouredPrivilege(pid int) string {
	exe := fmt.Sprintf("/proc/%d/exe", pid)
	var st unix.Stat_t
	if unix.Stat(exe, &st) != nil {
		return ""
	}
	setuid := st.Mode&unix.S_ISUID != 0
	setgid := st.Mode&(unix.S_ISGID|unix.S_IXGRP) == unix.S_ISGID|unix.S_IXGRP // without group x: mandatory locking
	fileCaps, capsOK := filePermittedCaps(exe)
	if !setuid && !setgid && (!capsOK || fileCaps == 0) {
		return ""
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return ""
	}
	var lacks []string
	if euid, ok := statusWord(status, "Uid:", 1, 10); ok && setuid && euid != uint64(st.Uid) {
		lacks = append(lacks, fmt.Sprintf("is set-user-ID uid %d but runs as uid %d", st.Uid, euid))
	}
	if egid, ok := statusWord(status, "Gid:", 1, 10); ok && setgid && egid != uint64(st.Gid) {
		lacks = append(lacks, fmt.Sprintf("is set-group-ID gid %d but runs as gid %d", st.Gid, egid))
	}
	if capsOK && fileCaps != 0 {
		prm, ok1 := statusWord(status, "CapPrm:", 0, 16)
		bnd, ok2 := statusWord(status, "CapBnd:", 0, 16)
		if missing := fileCaps & bnd &^ prm; ok1 && ok2 && missing != 0 {
			lacks = append(lacks, fmt.Sprintf("carries file capabilities it did not get (%s)",
				strings.ToLower(strings.Join(trace.CapabilityNames(missing), ","))))
		}
	}
	if len(lacks) == 0 {
		return ""
	}
	path, _ := os.Readlink(exe)
	return fmt.Sprintf("%s %s under envbisect: a traced program does not get its file's privileges "+
		"(ptrace without CAP_SYS_PTRACE, no_new_privs, or a nosuid mount), so this run differs from one without envbisect",
		path, strings.Join(lacks, " and "))
}

// filePermittedCaps returns the permitted set of the file capabilities
// (security.capability) of path; ok is false when it has none.
func filePermittedCaps(path string) (permitted uint64, ok bool) {
	b := make([]byte, 24)
	n, err := unix.Getxattr(path, "security.capability", b)
	if err != nil || n < 12 {
		return 0, false
	}
	permitted = uint64(binary.LittleEndian.Uint32(b[4:]))
	if n >= 20 {
		permitted |= uint64(binary.LittleEndian.Uint32(b[12:])) << 32
	}
	return permitted, true
}

// statusWord returns word i of the /proc status line that starts with
// key, parsed in base.
func statusWord(status []byte, key string, i, base int) (uint64, bool) {
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, key); ok {
			f := strings.Fields(v)
			if i >= len(f) {
				return 0, false
			}
			n, err := strconv.ParseUint(f[i], base, 64)
			return n, err == nil
		}
	}
	return 0, false
}
