package systable

import "testing"

// TestCapabilitiesNameCalls: every call the capability column names is a
// row of the amd64 table, and chown is decided by CAP_CHOWN.
func TestCapabilitiesNameCalls(t *testing.T) {
	tab, err := New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{
		"chown", "fchown", "lchown", "fchownat", "chmod", "fchmod", "fchmodat", "utime", "utimes", "futimesat", "utimensat",
		"kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_send_signal",
		"setgid", "setregid", "setresgid", "setfsgid", "setgroups", "setuid", "setreuid", "setresuid", "setfsuid",
		"bind", "socket", "init_module", "finit_module", "delete_module", "iopl", "ioperm", "chroot",
		"ptrace", "process_vm_readv", "process_vm_writev", "mount", "umount2", "pivot_root", "sethostname",
		"setdomainname", "setns", "unshare", "quotactl", "swapon", "swapoff", "reboot", "kexec_load",
		"setpriority", "sched_setscheduler", "sched_setparam", "sched_setattr", "ioprio_set",
		"setrlimit", "prlimit64", "settimeofday", "clock_settime", "adjtimex", "clock_adjtime",
		"mknod", "mknodat", "syslog", "perf_event_open", "bpf",
	}
	for _, n := range names {
		row, ok := tab.ByName(n)
		if !ok {
			t.Errorf("%s: not in the amd64 table", n)
			continue
		}
		if len(row.Capabilities()) == 0 {
			t.Errorf("%s: no capability", n)
		}
	}
	row, _ := tab.ByName("chown")
	if c := row.Capabilities(); len(c) != 1 || c[0] != capChown {
		t.Errorf("chown: %v, want [CAP_CHOWN]", c)
	}
	row, _ = tab.ByName("read")
	if c := row.Capabilities(); c != nil {
		t.Errorf("read: %v, want none", c)
	}
}
