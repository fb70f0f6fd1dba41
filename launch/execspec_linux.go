package launch

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// becomeTarget gives the helper's calling thread, about to exec the
// command, the identity and filters cfg says: cfg.Exec, the target's
// exec spec (nil: stay as we are), and our own tracing filter when
// cfg.Seccomp. The order is runc's (libcontainer/setns_init_linux.go):
// no_new_privs; the seccomp filters first when no_new_privs is not set
// (installing them then needs CAP_SYS_ADMIN, which the command's sets may
// lack); the bounding set; setgroups, setresgid, setresuid with
// PR_SET_KEEPCAPS; the capability sets and the ambient set; the LSM
// label on exec; the seccomp filters last under no_new_privs, as close to
// the exec as possible. Resource limits are set before, with the others
// (helper_linux.go). Everything is per thread (raw system calls): Go's
// setuid family would change every thread of the helper, and only this
// one execs. Calls made after a filter is installed go through it, as
// runc's own do: the tracer lets them run (the helper's calls are not
// recorded). Must run on the thread that execs.
func becomeTarget(cfg *helperConfig) error {
	spec := cfg.Exec
	if spec == nil {
		if !cfg.Seccomp {
			return nil
		}
		ours, err := tracingProgram(cfg.Allow, cfg.Stop)
		if err != nil {
			return err
		}
		if cfg.NoPrivs {
			if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
				return fmt.Errorf("set no_new_privs: %w", err)
			}
		}
		return installFilters([]trace.BPFProgram{ours})
	}
	var ours trace.BPFProgram
	if cfg.Seccomp {
		var err error
		if ours, err = tracingProgram(cfg.Allow, cfg.Stop); err != nil {
			return err
		}
	}
	filters := tracedPrograms(ours, spec.Seccomp)
	if spec.NoNewPrivs {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			return fmt.Errorf("set no_new_privs: %w", err)
		}
	} else if err := installFilters(filters); err != nil {
		return err
	}
	if err := setIdentity(spec); err != nil {
		return err
	}
	if err := setLSMLabel(spec.LSMLabel); err != nil {
		return err
	}
	if spec.NoNewPrivs {
		return installFilters(filters)
	}
	return nil
}

// installFilters installs programs on the calling thread, oldest first.
func installFilters(programs []trace.BPFProgram) error {
	for i, p := range programs {
		if len(p) == 0 {
			continue
		}
		prog := unix.SockFprog{Len: uint16(len(p)), Filter: (*unix.SockFilter)(unsafe.Pointer(&p[0]))}
		if _, _, e := unix.RawSyscall(unix.SYS_SECCOMP, 1 /* SECCOMP_SET_MODE_FILTER */, 0, uintptr(unsafe.Pointer(&prog))); e != 0 {
			return fmt.Errorf("install seccomp filter %d of %d (%d instructions): %w", i+1, len(programs), len(p), e)
		}
	}
	return nil
}

// setIdentity sets the bounding set, groups, ids and capability sets of
// the calling thread to spec's.
func setIdentity(spec *trace.ExecSpec) error {
	last := lastCap()
	for c := 0; c <= last; c++ {
		if spec.Caps.Bounding&(1<<c) != 0 {
			continue
		}
		if in, err := unix.PrctlRetInt(unix.PR_CAPBSET_READ, uintptr(c), 0, 0, 0); err == nil && in == 0 {
			continue // not in it: dropping it again would need CAP_SETPCAP for nothing
		}
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return fmt.Errorf("drop capability %d from the bounding set: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_KEEPCAPS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("keep capabilities: %w", err)
	}
	// Each id is set only when it changes: setting the same ones again
	// would need CAP_SETGID or CAP_SETUID for nothing (a plain run of an
	// unprivileged envbisect: plainidentity.go).
	groups := spec.Groups
	if cur, err := unix.Getgroups(); err != nil || !sameGroups(groups, intsToIDs(cur)) {
		var gp uintptr
		if len(groups) > 0 {
			gp = uintptr(unsafe.Pointer(&groups[0]))
		}
		if _, _, e := unix.RawSyscall(unix.SYS_SETGROUPS, uintptr(len(groups)), gp, 0); e != 0 {
			return fmt.Errorf("setgroups %v: %w", groups, e)
		}
	}
	g, u := uintptr(spec.GID), uintptr(spec.UID)
	if r, e, sv := unix.Getresgid(); r != int(spec.GID) || e != int(spec.GID) || sv != int(spec.GID) {
		if _, _, e := unix.RawSyscall(unix.SYS_SETRESGID, g, g, g); e != 0 {
			return fmt.Errorf("setresgid %d: %w", spec.GID, e)
		}
	}
	if r, e, sv := unix.Getresuid(); r != int(spec.UID) || e != int(spec.UID) || sv != int(spec.UID) {
		if _, _, e := unix.RawSyscall(unix.SYS_SETRESUID, u, u, u); e != 0 {
			return fmt.Errorf("setresuid %d: %w", spec.UID, e)
		}
	}
	if err := unix.Prctl(unix.PR_SET_KEEPCAPS, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("clear keep-capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	// The permitted and effective sets never grow past what this thread
	// holds (capset(2) refuses that): a plain run's identity names
	// envbisect's, which its helper may hold less of after its exec.
	held := ^uint64(0)
	if err := unix.Capget(&hdr, &data[0]); err == nil {
		held = uint64(data[0].Permitted) | uint64(data[1].Permitted)<<32
	}
	for i := 0; i < 2; i++ {
		data[i].Effective = uint32(spec.Caps.Effective & held >> (32 * i))
		data[i].Permitted = uint32(spec.Caps.Permitted & held >> (32 * i))
		data[i].Inheritable = uint32(spec.Caps.Inheritable >> (32 * i))
	}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("set capabilities (effective %x, permitted %x, inheritable %x): %w",
			spec.Caps.Effective, spec.Caps.Permitted, spec.Caps.Inheritable, err)
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != unix.EINVAL {
		return fmt.Errorf("clear the ambient capabilities: %w", err)
	}
	for c := 0; c <= last; c++ {
		if spec.Caps.Ambient&(1<<c) == 0 {
			continue
		}
		if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_RAISE, uintptr(c), 0, 0); err != nil {
			return fmt.Errorf("raise ambient capability %d: %w", c, err)
		}
	}
	return nil
}

// intsToIDs converts ids as Getgroups returns them.
func intsToIDs(ids []int) []uint32 {
	out := make([]uint32, len(ids))
	for i, id := range ids {
		out[i] = uint32(id)
	}
	return out
}

// lastCap is the highest capability number this kernel knows.
func lastCap() int {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err != nil {
		return 40
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 40
	}
	return n
}

// setLSMLabel makes the exec enter label (an AppArmor profile, "name
// (enforce)" as attr/current shows it, or an SELinux context) where the
// host runs that security module; nothing for "" and "unconfined".
func setLSMLabel(label string) error {
	label = strings.TrimSpace(label)
	if label == "" || label == "unconfined" {
		return nil
	}
	var path, value string
	switch {
	case fileSays("/sys/module/apparmor/parameters/enabled", "Y"):
		name, _, _ := strings.Cut(label, " (")
		if name == "unconfined" {
			return nil
		}
		path, value = "/proc/thread-self/attr/apparmor/exec", "exec "+name
		if _, err := os.Stat(path); err != nil {
			path = "/proc/thread-self/attr/exec"
		}
	case dirExists("/sys/fs/selinux"):
		path, value = "/proc/thread-self/attr/exec", label
	default:
		return nil // a label from a host module we do not have: nothing to enter
	}
	if err := os.WriteFile(path, []byte(value), 0); err != nil {
		return fmt.Errorf("set the security label %q on exec: %w", label, err)
	}
	return nil
}

func fileSays(path, want string) bool {
	b, err := os.ReadFile(path)
	return err == nil && strings.TrimSpace(string(b)) == want
}

func dirExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
