package systable

// Capabilities returns the capabilities (bit numbers, 0 for CAP_CHOWN)
// whose absence makes the call fail with EPERM or EACCES where it would
// succeed with them (capabilities(7)): what a report names when a
// process's capability sets differ and the call failed here. nil for a
// call no capability decides.
func (s *Syscall) Capabilities() []int {
	return callCapabilities(s.Name)
}

// Capability bit numbers (linux/capability.h) the table below uses.
const (
	capChown          = 0
	capFowner         = 3
	capKill           = 5
	capSetgid         = 6
	capSetuid         = 7
	capNetBindService = 10
	capNetAdmin       = 12
	capNetRaw         = 13
	capSysModule      = 16
	capSysRawio       = 17
	capSysChroot      = 18
	capSysPtrace      = 19
	capSysAdmin       = 21
	capSysBoot        = 22
	capSysNice        = 23
	capSysResource    = 24
	capSysTime        = 25
	capMknod          = 27
	capSyslog         = 34
	capPerfmon        = 38
	capBPF            = 39
)

// callCapabilities is the column's data, by the call's name (the same on
// every architecture).
func callCapabilities(name string) []int {
	switch name {
	case "chown", "fchown", "lchown", "fchownat":
		return []int{capChown}
	case "chmod", "fchmod", "fchmodat", "fchmodat2", "utime", "utimes", "futimesat", "utimensat":
		return []int{capFowner}
	case "kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_send_signal":
		return []int{capKill}
	case "setgid", "setregid", "setresgid", "setfsgid", "setgroups":
		return []int{capSetgid}
	case "setuid", "setreuid", "setresuid", "setfsuid":
		return []int{capSetuid}
	case "bind":
		return []int{capNetBindService}
	case "socket":
		return []int{capNetRaw, capNetAdmin}
	case "init_module", "finit_module", "delete_module":
		return []int{capSysModule}
	case "iopl", "ioperm":
		return []int{capSysRawio}
	case "chroot":
		return []int{capSysChroot}
	case "ptrace", "process_vm_readv", "process_vm_writev":
		return []int{capSysPtrace}
	case "mount", "umount2", "pivot_root", "sethostname", "setdomainname", "setns", "unshare",
		"fsopen", "fsmount", "move_mount", "open_tree", "quotactl", "swapon", "swapoff":
		return []int{capSysAdmin}
	case "reboot", "kexec_load", "kexec_file_load":
		return []int{capSysBoot}
	case "setpriority", "sched_setscheduler", "sched_setparam", "sched_setattr", "ioprio_set":
		return []int{capSysNice}
	case "setrlimit", "prlimit64":
		return []int{capSysResource}
	case "settimeofday", "clock_settime", "adjtimex", "clock_adjtime":
		return []int{capSysTime}
	case "mknod", "mknodat":
		return []int{capMknod}
	case "syslog":
		return []int{capSyslog}
	case "perf_event_open":
		return []int{capPerfmon, capSysAdmin}
	case "bpf":
		return []int{capBPF, capSysAdmin}
	}
	return nil
}
