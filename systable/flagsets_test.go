package systable

import (
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestFormat(t *testing.T) {
	cases := []struct {
		set  *FlagSet
		v    uint64
		want string
	}{
		{OpenFlags, unix.O_RDONLY | unix.O_CLOEXEC, "O_RDONLY|O_CLOEXEC"},
		{OpenFlags, unix.O_WRONLY | unix.O_CREAT | unix.O_TRUNC, "O_WRONLY|O_CREAT|O_TRUNC"},
		{OpenFlags, 0, "O_RDONLY"},
		{OpenFlags, unix.O_RDWR | 0x40000000, "O_RDWR|0x40000000"},
		{OpenFlags, unix.O_RDWR | unix.O_TMPFILE, "O_RDWR|O_TMPFILE"},
		{OpenFlags, unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NONBLOCK | unix.O_CLOEXEC, "O_RDONLY|O_NONBLOCK|O_DIRECTORY|O_CLOEXEC"},
		{OpenFlags, unix.O_WRONLY | unix.O_SYNC, "O_WRONLY|O_SYNC"},
		{OpenFlags, unix.O_RDWR | 0o100000, "O_RDWR|O_LARGEFILE"},
		{OpenFlags, 3, "0x3"},
		{AccessModes, unix.F_OK, "F_OK"},
		{AccessModes, unix.R_OK | unix.W_OK, "R_OK|W_OK"},
		{AccessModes, unix.X_OK, "X_OK"},
		{AtFlags, unix.AT_SYMLINK_NOFOLLOW, "AT_SYMLINK_NOFOLLOW"},
		{AtFlags, unix.AT_EMPTY_PATH | unix.AT_SYMLINK_NOFOLLOW, "AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH"},
		{AtFlags, 0, "0x0"},
		{UnlinkatFlags, unix.AT_REMOVEDIR, "AT_REMOVEDIR"},
		{FaccessatFlags, unix.AT_EACCESS, "AT_EACCESS"},
		{Prot, unix.PROT_NONE, "PROT_NONE"},
		{Prot, unix.PROT_READ | unix.PROT_WRITE, "PROT_READ|PROT_WRITE"},
		{Prot, unix.PROT_READ | unix.PROT_EXEC, "PROT_READ|PROT_EXEC"},
		{MapFlags, unix.MAP_PRIVATE | unix.MAP_ANONYMOUS, "MAP_PRIVATE|MAP_ANONYMOUS"},
		{MapFlags, unix.MAP_PRIVATE | unix.MAP_FIXED | unix.MAP_DENYWRITE, "MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE"},
		{CloneFlags, unix.CLONE_CHILD_CLEARTID | unix.CLONE_CHILD_SETTID | uint64(unix.SIGCHLD), "SIGCHLD|CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID"},
		{CloneFlags, unix.CLONE_VM | unix.CLONE_VFORK | uint64(unix.SIGCHLD), "SIGCHLD|CLONE_VM|CLONE_VFORK"},
		{SocketTypes, unix.SOCK_STREAM | unix.SOCK_CLOEXEC | unix.SOCK_NONBLOCK, "SOCK_STREAM|SOCK_NONBLOCK|SOCK_CLOEXEC"},
		{SocketTypes, unix.SOCK_DGRAM, "SOCK_DGRAM"},
		{SocketFamilies, unix.AF_INET6, "AF_INET6"},
		{SocketFamilies, 99, "0x63"},
		{MsgFlags, unix.MSG_NOSIGNAL | unix.MSG_DONTWAIT, "MSG_DONTWAIT|MSG_NOSIGNAL"},
		{FcntlCmds, unix.F_DUPFD_CLOEXEC, "F_DUPFD_CLOEXEC"},
		{FcntlCmds, unix.F_DUPFD, "F_DUPFD"},
		{Whence, unix.SEEK_END, "SEEK_END"},
		{Whence, 9, "0x9"},
		{FutexOps, 0x80 | 1, "FUTEX_WAKE|FUTEX_PRIVATE_FLAG"},
		{FutexOps, 0x80 | 9 | 0x100, "FUTEX_WAIT_BITSET|FUTEX_PRIVATE_FLAG|FUTEX_CLOCK_REALTIME"},
		{ClockIDs, unix.CLOCK_MONOTONIC, "CLOCK_MONOTONIC"},
		{SigprocmaskHow, unix.SIG_SETMASK, "SIG_SETMASK"},
		{PollEvents, unix.POLLIN | unix.POLLHUP, "POLLIN|POLLHUP"},
		{EpollCtlOps, unix.EPOLL_CTL_MOD, "EPOLL_CTL_MOD"},
		{EpollEvents, unix.EPOLLIN | unix.EPOLLET, "EPOLLIN|EPOLLET"},
		{WaitOptions, unix.WNOHANG | unix.WALL, "WNOHANG|__WALL"},
		{WaitidOptions, unix.WEXITED | unix.WNOWAIT, "WEXITED|WNOWAIT"},
		{FlockOps, unix.LOCK_EX | unix.LOCK_NB, "LOCK_EX|LOCK_NB"},
		{FlockOps, unix.LOCK_UN, "LOCK_UN"},
		{FileTypes, unix.S_IFIFO | 0o644, "S_IFIFO|0x1a4"},
		{FileTypes, unix.S_IFDIR, "S_IFDIR"},
		{RlimitResources, unix.RLIMIT_NOFILE, "RLIMIT_NOFILE"},
		{RusageWho, uint64(uint32(0xffffffff)), "RUSAGE_CHILDREN"},
		{PipeFlags, unix.O_CLOEXEC | unix.O_NONBLOCK, "O_CLOEXEC|O_NONBLOCK"},
		{ArchPrctlCodes, 0x1002, "ARCH_SET_FS"},
		{PrctlOptions, unix.PR_SET_NAME, "PR_SET_NAME"},
		{MadviseAdvice, unix.MADV_DONTNEED, "MADV_DONTNEED"},
		{StatxFlags, unix.AT_STATX_SYNC_AS_STAT | unix.AT_SYMLINK_NOFOLLOW, "AT_STATX_SYNC_AS_STAT|AT_SYMLINK_NOFOLLOW"},
		{StatxMask, unix.STATX_BASIC_STATS | unix.STATX_MNT_ID, "STATX_BASIC_STATS|STATX_MNT_ID"},
		{RenameFlags, unix.RENAME_NOREPLACE, "RENAME_NOREPLACE"},
		{GetrandomFlags, unix.GRND_NONBLOCK, "GRND_NONBLOCK"},
		{MemfdFlags, unix.MFD_CLOEXEC | unix.MFD_ALLOW_SEALING, "MFD_CLOEXEC|MFD_ALLOW_SEALING"},
		{EventfdFlags, unix.EFD_CLOEXEC | unix.EFD_NONBLOCK, "EFD_CLOEXEC|EFD_NONBLOCK"},
		{ShutdownHow, unix.SHUT_WR, "SHUT_WR"},
		{SockoptLevels, unix.SOL_SOCKET, "SOL_SOCKET"},
		{SockoptLevels, unix.SOL_TCP, "SOL_TCP"},
	}
	for _, c := range cases {
		if got := c.set.Format(c.v); got != c.want {
			t.Errorf("%s.Format(%#x) = %q, want %q", c.set.Name, c.v, got, c.want)
		}
	}
}

func TestHas(t *testing.T) {
	v := uint64(unix.O_WRONLY | unix.O_CREAT | unix.O_TRUNC)
	if !OpenFlags.Has(v, "O_CREAT") || !OpenFlags.Has(v, "O_TRUNC") || OpenFlags.Has(v, "O_EXCL") {
		t.Error("OpenFlags.Has")
	}
	if OpenFlags.Has(unix.O_DIRECTORY, "O_TMPFILE") {
		t.Error("O_DIRECTORY alone must not read as O_TMPFILE")
	}
}

func TestSignalName(t *testing.T) {
	cases := []struct {
		n    int
		want string
	}{
		{int(unix.SIGTERM), "SIGTERM"},
		{int(unix.SIGKILL), "SIGKILL"},
		{int(unix.SIGCHLD), "SIGCHLD"},
		{int(unix.SIGSYS), "SIGSYS"},
		{int(unix.SIGHUP), "SIGHUP"},
		{32, "SIGRTMIN"},
		{34, "SIGRTMIN+2"},
		{64, "SIGRTMAX"},
		{0, "0"},
		{65, "65"},
		{-1, "-1"},
	}
	for _, c := range cases {
		if got := SignalName(c.n); got != c.want {
			t.Errorf("SignalName(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	for n := 1; n < 32; n++ {
		if want := unix.SignalName(unix.Signal(n)); want != "" && SignalName(n) != want {
			t.Errorf("SignalName(%d) = %q, x/sys says %q", n, SignalName(n), want)
		}
	}
}

// allFlagSets is every flag set rows point to, plus those kept for
// decoding buffers.
func allFlagSets(t *testing.T) map[*FlagSet]bool {
	sets := map[*FlagSet]bool{PollEvents: true, EpollEvents: true, ResolveFlags: true, SealFlags: true}
	for _, r := range amd64Table(t).All() {
		for _, a := range r.Args {
			if a.Flags != nil {
				sets[a.Flags] = true
			}
		}
	}
	return sets
}

// Flag sets are consistent data: names unique, bits non-zero and outside
// the enum field, enum values inside it.
func TestFlagSetsWellFormed(t *testing.T) {
	for fs := range allFlagSets(t) {
		if fs.Name == "" {
			t.Errorf("flag set without a name: %+v", fs)
		}
		names := map[string]bool{}
		values := map[uint64]string{}
		for _, e := range fs.Enum {
			if names[e.Name] {
				t.Errorf("%s: %s listed twice", fs.Name, e.Name)
			}
			names[e.Name] = true
			if prev, dup := values[e.Value]; dup {
				t.Errorf("%s: %s and %s share value %#x", fs.Name, prev, e.Name, e.Value)
			}
			values[e.Value] = e.Name
			if fs.Mask != 0 && e.Value&^fs.Mask != 0 {
				t.Errorf("%s: enum %s (%#x) outside mask %#x", fs.Name, e.Name, e.Value, fs.Mask)
			}
		}
		bits := map[string]bool{}
		for _, b := range fs.Bits {
			if bits[b.Name] {
				t.Errorf("%s: bit %s listed twice", fs.Name, b.Name)
			}
			bits[b.Name] = true
			if b.Value == 0 {
				t.Errorf("%s: bit %s is zero", fs.Name, b.Name)
			}
			if b.Value&fs.Mask != 0 {
				t.Errorf("%s: bit %s (%#x) inside mask %#x", fs.Name, b.Name, b.Value, fs.Mask)
			}
		}
	}
}

func TestStrings(t *testing.T) {
	if len(effectNames) != 33 || Effect(1)<<32 != ActsOnDirectory || Effect(1)<<29 != ClosesFDRange || Effect(1)<<23 != ModifiesFile {
		t.Fatalf("effectNames out of step with the Effect constants")
	}
	for i, n := range effectNames {
		if got := Effect(1 << i).String(); got != n {
			t.Errorf("Effect(1<<%d) = %s, want %s", i, got, n)
		}
	}
	cases := []struct{ got, want string }{
		{(UsesFD | CreatesFD).String(), "CreatesFD|UsesFD"},
		{Effect(0).String(), "0"},
		{(ReadsEnvironment | 1<<40).String(), "ReadsEnvironment|0x10000000000"},
		{OutBuf.String(), "OutBuf"},
		{Kind(99).String(), "Kind(99)"},
		{AlwaysExecute.String(), "AlwaysExecute"},
		{byRet().String(), "ret"},
		{byRetN(12).String(), "ret*12"},
		{byArgN(1, 8).String(), "arg1*8"},
		{fixed(144).String(), "144"},
		{byArgPtr(5).String(), "*arg5"},
		{byMinArgRet(2).String(), "min(arg2,ret)"},
		{byFdSet(0).String(), "fdset(arg0)"},
		{byRequest(LenIoctl, 1).String(), "ioctl(arg1)"},
		{LenPrctl.String(), "LenPrctl"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	for k := Int; k <= OutMsghdr; k++ {
		if strings.HasPrefix(k.String(), "Kind(") {
			t.Errorf("kind %d has no name", k)
		}
	}
	for l := LenFixed; l <= LenPrctl; l++ {
		if strings.HasPrefix(l.String(), "LenFrom(") {
			t.Errorf("LenFrom %d has no name", l)
		}
	}
}
