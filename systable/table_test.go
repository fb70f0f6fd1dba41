package systable

import (
	"runtime"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

func amd64Table(t *testing.T) *Table {
	t.Helper()
	tab, err := New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestNativeIsAmd64(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the table is x86-64 only")
	}
	tab, err := Native()
	if err != nil {
		t.Fatal(err)
	}
	if tab.Arch != "amd64" {
		t.Fatalf("Native().Arch = %q", tab.Arch)
	}
}

func TestByNrUnknownNumber(t *testing.T) {
	r := amd64Table(t).ByNr(100000)
	if !r.Unknown || r.Name != "syscall_100000" || r.Policy != AlwaysExecute {
		t.Fatalf("ByNr(100000) = %+v", r)
	}
}

func TestUnknownRowsAreBare(t *testing.T) {
	for _, r := range amd64Table(t).All() {
		if !r.Unknown {
			continue
		}
		if r.Policy != AlwaysExecute || len(r.Args) != 0 || r.Effects != 0 || r.Cond != nil || r.NoStop {
			t.Errorf("%s: unknown rows carry a name only and always execute: %+v", r.Name, r)
		}
	}
}

// effectsOf is every effect a row can have: its own and its conditional
// ones.
func effectsOf(r *Syscall) Effect {
	e := r.Effects
	for _, c := range r.Cond {
		e |= c.Effect
	}
	return e
}

const fdEffects = UsesFD | ClosesFD | DupsFD | ClosesFDRange

func TestRowShape(t *testing.T) {
	for _, r := range amd64Table(t).All() {
		if r.Unknown {
			continue
		}
		t.Run(r.Name, func(t *testing.T) {
			if len(r.Args) > 6 {
				t.Errorf("%d arguments", len(r.Args))
			}
			if r.Policy != Replayable && r.Policy != AlwaysExecute {
				t.Errorf("policy %d", r.Policy)
			}
			switch r.Ret {
			case Int, Hex, FD, PID, Mode, Signal:
			default:
				t.Errorf("return kind %d", r.Ret)
			}
			names := map[string]bool{}
			for i, a := range r.Args {
				if a.Name == "" || names[a.Name] {
					t.Errorf("arg %d: empty or repeated name %q", i, a.Name)
				}
				names[a.Name] = true
				if a.Kind < Int || a.Kind > OutMmsghdr {
					t.Errorf("arg %s: kind %d", a.Name, a.Kind)
				}
				if (a.Kind == Flags || a.Kind == Enum) != (a.Flags != nil) {
					t.Errorf("arg %s: kind %d with flag set %v", a.Name, a.Kind, a.Flags)
				}
			}
			for _, c := range r.Cond {
				if int(c.Arg) >= len(r.Args) || c.Effect == 0 || (c.Mask == 0) == (len(c.Values) == 0) {
					t.Errorf("bad cond %+v", c)
				}
			}
		})
	}
}

// Every fd argument has a rule for the resource it names, and the rules
// for fds and paths agree with the arguments a row has.
func TestResourceEffects(t *testing.T) {
	for _, r := range amd64Table(t).All() {
		if r.Unknown {
			continue
		}
		eff := effectsOf(r)
		var hasFD, hasPath bool
		for _, a := range r.Args {
			hasFD = hasFD || a.Kind == FD || a.Kind == DirFD
			hasPath = hasPath || a.Kind == Path
		}
		if hasFD && eff&fdEffects == 0 {
			t.Errorf("%s takes an fd but has none of UsesFD, ClosesFD, DupsFD, ClosesFDRange", r.Name)
		}
		if !hasFD && eff&fdEffects != 0 {
			t.Errorf("%s has an fd effect but no fd argument", r.Name)
		}
		if hasPath != (eff&NamesPath != 0) {
			t.Errorf("%s: Path argument %v, NamesPath %v", r.Name, hasPath, eff&NamesPath != 0)
		}
		if eff&(CreatesPath|RemovesPath|ChangesRoot) != 0 && eff&NamesPath == 0 {
			t.Errorf("%s creates or removes a path without naming one", r.Name)
		}
		if (r.Ret == FD) != (r.Effects&CreatesFD != 0) {
			t.Errorf("%s: returns %d, CreatesFD %v (every fd-returning call creates an fd)", r.Name, r.Ret, r.Effects&CreatesFD != 0)
		}
		if eff&DupsFD != 0 && eff&CreatesFD == 0 {
			t.Errorf("%s duplicates an fd without creating one", r.Name)
		}
		if eff&CreatesFDPair != 0 {
			found := false
			for _, a := range r.Args {
				found = found || (a.Kind == OutBuf && a.Len == fixed(intPairSize))
			}
			if !found {
				t.Errorf("%s creates an fd pair without an int[2] out-buffer", r.Name)
			}
		}
	}
}

// Calls in the categories the brief lists always execute.
func TestPolicy(t *testing.T) {
	const mustExecute = MapsMemory | CreatesProcess | ExecsImage | EndsThread | WaitsChild | SignalsProcess | ChangesSignals
	for _, r := range amd64Table(t).All() {
		if r.Effects&mustExecute != 0 && r.Policy != AlwaysExecute {
			t.Errorf("%s has effects %#x and must always execute", r.Name, r.Effects&mustExecute)
		}
	}
	for _, name := range []string{
		"mmap", "munmap", "mprotect", "brk", "mremap", "madvise",
		"clone", "clone3", "fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4", "waitid",
		"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "kill", "tgkill", "tkill",
		"futex", "arch_prctl", "set_tid_address", "set_robust_list", "rseq", "sched_yield",
		// pids stay live; sleeps pace a program against the others
		"getpid", "gettid", "getppid", "getpgrp", "getpgid", "getsid", "setsid", "setpgid",
		"nanosleep", "clock_nanosleep",
	} {
		if r, _ := amd64Table(t).ByName(name); r == nil || r.Policy != AlwaysExecute {
			t.Errorf("%s must always execute", name)
		}
	}
	for _, name := range []string{"read", "openat", "stat", "connect", "bind", "getrandom", "uname", "getdents64", "clock_gettime"} {
		if r, _ := amd64Table(t).ByName(name); r == nil || r.Policy != Replayable {
			t.Errorf("%s must be replayable", name)
		}
	}
}

// The NoStop rows are exactly these, each with a reason, each always
// executed, none returning or carrying environment content.
func TestNoStop(t *testing.T) {
	tab := amd64Table(t)
	want := []string{
		"futex", "futex_requeue", "futex_wait", "futex_waitv", "futex_wake",
		"madvise", "membarrier", "mprotect", "restart_syscall",
		"rseq", "rt_sigprocmask", "rt_sigreturn", "sched_yield", "set_robust_list",
	}
	if got := tab.NoStop(); !slices.Equal(got, want) {
		t.Errorf("NoStop() = %v, want %v", got, want)
	}
	const allowed = MapsMemory | ChangesSignals
	for _, name := range want {
		r, _ := tab.ByName(name)
		if r.Why == "" {
			t.Errorf("%s: NoStop without Why", name)
		}
		if r.Policy != AlwaysExecute {
			t.Errorf("%s: NoStop rows are never replayed, so they must always execute", name)
		}
		if e := effectsOf(r); e&^allowed != 0 {
			t.Errorf("%s: NoStop with effects %#x: a later stage needs to see it", name, e&^allowed)
		}
		if r.Ret != Int {
			t.Errorf("%s: NoStop returning kind %d (fds, pids and addresses must be recorded)", name, r.Ret)
		}
	}
	for _, r := range tab.All() {
		if !r.NoStop && r.Why != "" {
			t.Errorf("%s: Why without NoStop", r.Name)
		}
	}
}

func isBuffer(k Kind) bool {
	switch k {
	case InBuf, OutBuf, InOutBuf, InIovec, OutIovec, InMmsghdr, OutMmsghdr:
		return true
	}
	return false
}

// Every buffer argument has a length that can be worked out.
func TestBufferLengths(t *testing.T) {
	for _, r := range amd64Table(t).All() {
		for i, a := range r.Args {
			ref := func() *Arg {
				j := int(a.Len.Arg)
				if j >= len(r.Args) || j == i {
					t.Errorf("%s.%s: length from argument %d of %d", r.Name, a.Name, j, len(r.Args))
					return nil
				}
				return &r.Args[j]
			}
			if !isBuffer(a.Kind) {
				if a.Len != (Len{}) {
					t.Errorf("%s.%s: kind %d has a length", r.Name, a.Name, a.Kind)
				}
				continue
			}
			switch a.Len.From {
			case LenFixed:
				if a.Len.Size == 0 {
					t.Errorf("%s.%s: fixed length 0", r.Name, a.Name)
				}
			case LenArg, LenMinArgRet, LenFdSet:
				if o := ref(); o != nil && o.Kind != Int {
					t.Errorf("%s.%s: length from %s, a %d, not an Int", r.Name, a.Name, o.Name, o.Kind)
				}
			case LenArgPtr:
				if o := ref(); o != nil && (o.Kind != InOutBuf || o.Len != fixed(intSize)) {
					t.Errorf("%s.%s: length pointer %s is not a 4-byte InOutBuf", r.Name, a.Name, o.Name)
				}
			case LenRet:
				if a.Kind != OutBuf {
					t.Errorf("%s.%s: only out-buffers are sized by the return value", r.Name, a.Name)
				}
			case LenIoctl:
				if r.Name != "ioctl" || i != 2 {
					t.Errorf("%s.%s: LenIoctl outside ioctl's third argument", r.Name, a.Name)
				}
			case LenFcntl:
				if r.Name != "fcntl" || i != 2 {
					t.Errorf("%s.%s: LenFcntl outside fcntl's third argument", r.Name, a.Name)
				}
			case LenPrctl:
				if r.Name != "prctl" || i != 1 {
					t.Errorf("%s.%s: LenPrctl outside prctl's second argument", r.Name, a.Name)
				}
			default:
				t.Errorf("%s.%s: buffer without a length (%d)", r.Name, a.Name, a.Len.From)
			}
			if (a.Kind == InIovec || a.Kind == OutIovec) && a.Len.From != LenArg {
				t.Errorf("%s.%s: iovec count must come from an argument", r.Name, a.Name)
			}
			if a.Len.From == LenMinArgRet && a.Kind != OutBuf {
				t.Errorf("%s.%s: LenMinArgRet on a %d", r.Name, a.Name, a.Kind)
			}
		}
	}
}

// The rows the brief spells out, argument by argument.
func TestRowsAsSpecified(t *testing.T) {
	tab := amd64Table(t)
	type want struct {
		arg  int
		kind Kind
		len  Len
	}
	cases := []struct {
		call string
		ret  Kind
		args []want
	}{
		{"read", Int, []want{{0, FD, Len{}}, {1, OutBuf, byRetUpTo(2)}}},
		{"write", Int, []want{{1, InBuf, byArg(2)}}},
		{"pread64", Int, []want{{1, OutBuf, byRetUpTo(2)}}},
		{"pwrite64", Int, []want{{1, InBuf, byArg(2)}}},
		{"readv", Int, []want{{1, OutIovec, byArg(2)}}},
		{"preadv", Int, []want{{1, OutIovec, byArg(2)}}},
		{"writev", Int, []want{{1, InIovec, byArg(2)}}},
		{"recvfrom", Int, []want{{1, OutBuf, byMinArgRet(2)}, {4, OutBuf, byArgPtr(5)}, {5, InOutBuf, fixed(4)}}},
		{"sendto", Int, []want{{1, InBuf, byArg(2)}, {4, InBuf, byArg(5)}}},
		{"recvmsg", Int, []want{{1, OutMsghdr, Len{}}}},
		{"sendmsg", Int, []want{{1, InMsghdr, Len{}}}},
		{"stat", Int, []want{{0, Path, Len{}}, {1, OutBuf, fixed(144)}}},
		{"fstat", Int, []want{{1, OutBuf, fixed(144)}}},
		{"lstat", Int, []want{{1, OutBuf, fixed(144)}}},
		{"newfstatat", Int, []want{{0, DirFD, Len{}}, {1, Path, Len{}}, {2, OutBuf, fixed(144)}, {3, Flags, Len{}}}},
		{"statx", Int, []want{{4, OutBuf, fixed(256)}}},
		{"statfs", Int, []want{{1, OutBuf, fixed(120)}}},
		{"fstatfs", Int, []want{{1, OutBuf, fixed(120)}}},
		{"uname", Int, []want{{0, OutBuf, fixed(390)}}},
		{"sysinfo", Int, []want{{0, OutBuf, fixed(112)}}},
		{"getdents64", Int, []want{{1, OutBuf, byRetUpTo(2)}}},
		{"readlink", Int, []want{{1, OutBuf, byRetUpTo(2)}}},
		{"readlinkat", Int, []want{{2, OutBuf, byRetUpTo(3)}}},
		{"getcwd", Int, []want{{0, OutBuf, byRetUpTo(1)}}},
		{"getrandom", Int, []want{{0, OutBuf, byRetUpTo(1)}}},
		{"getxattr", Int, []want{{2, OutBuf, byMinArgRet(3)}}},
		{"clock_gettime", Int, []want{{0, Enum, Len{}}, {1, OutBuf, fixed(16)}}},
		{"clock_getres", Int, []want{{1, OutBuf, fixed(16)}}},
		{"gettimeofday", Int, []want{{0, OutBuf, fixed(16)}, {1, OutBuf, fixed(8)}}},
		{"time", Int, []want{{0, OutBuf, fixed(8)}}},
		{"times", Int, []want{{0, OutBuf, fixed(32)}}},
		{"getrlimit", Int, []want{{1, OutBuf, fixed(16)}}},
		{"prlimit64", Int, []want{{2, InBuf, fixed(16)}, {3, OutBuf, fixed(16)}}},
		{"getrusage", Int, []want{{1, OutBuf, fixed(144)}}},
		{"wait4", PID, []want{{1, OutBuf, fixed(4)}, {3, OutBuf, fixed(144)}}},
		{"waitid", Int, []want{{2, OutBuf, fixed(128)}, {4, OutBuf, fixed(144)}}},
		{"pipe", Int, []want{{0, OutBuf, fixed(8)}}},
		{"pipe2", Int, []want{{0, OutBuf, fixed(8)}}},
		{"socketpair", Int, []want{{3, OutBuf, fixed(8)}}},
		{"poll", Int, []want{{0, InOutBuf, byArgN(1, 8)}}},
		{"ppoll", Int, []want{{0, InOutBuf, byArgN(1, 8)}}},
		{"select", Int, []want{{1, InOutBuf, byFdSet(0)}, {2, InOutBuf, byFdSet(0)}, {3, InOutBuf, byFdSet(0)}}},
		{"pselect6", Int, []want{{1, InOutBuf, byFdSet(0)}, {4, InOutBuf, fixed(16)}}},
		{"epoll_wait", Int, []want{{1, OutBuf, byRetNUpTo(12, 2)}}},
		{"epoll_pwait", Int, []want{{1, OutBuf, byRetNUpTo(12, 2)}}},
		{"epoll_ctl", Int, []want{{0, FD, Len{}}, {2, FD, Len{}}, {3, InBuf, fixed(12)}}},
		{"accept", FD, []want{{1, OutBuf, byArgPtr(2)}, {2, InOutBuf, fixed(4)}}},
		{"accept4", FD, []want{{1, OutBuf, byArgPtr(2)}, {2, InOutBuf, fixed(4)}}},
		{"getsockname", Int, []want{{1, OutBuf, byArgPtr(2)}, {2, InOutBuf, fixed(4)}}},
		{"getpeername", Int, []want{{1, OutBuf, byArgPtr(2)}}},
		{"bind", Int, []want{{1, InBuf, byArg(2)}}},
		{"connect", Int, []want{{1, InBuf, byArg(2)}}},
		{"getsockopt", Int, []want{{3, OutBuf, byArgPtr(4)}, {4, InOutBuf, fixed(4)}}},
		{"setsockopt", Int, []want{{3, InBuf, byArg(4)}}},
		{"ioctl", Int, []want{{1, Enum, Len{}}, {2, InOutBuf, Len{From: LenIoctl, Arg: 1}}}},
		{"fcntl", Int, []want{{1, Enum, Len{}}, {2, InOutBuf, Len{From: LenFcntl, Arg: 1}}}},
		{"rt_sigaction", Int, []want{{0, Signal, Len{}}, {1, InBuf, fixed(32)}, {2, OutBuf, fixed(32)}}},
		{"rt_sigprocmask", Int, []want{{1, InBuf, byArg(3)}, {2, OutBuf, byArg(3)}}},
		{"sigaltstack", Int, []want{{0, InBuf, fixed(24)}, {1, OutBuf, fixed(24)}}},
		{"nanosleep", Int, []want{{0, InBuf, fixed(16)}, {1, OutBuf, fixed(16)}}},
		{"clock_nanosleep", Int, []want{{2, InBuf, fixed(16)}, {3, OutBuf, fixed(16)}}},
		{"sched_getaffinity", Int, []want{{2, OutBuf, byRetUpTo(1)}}},
		{"getgroups", Int, []want{{1, OutBuf, byRetN(4)}}},
		{"setgroups", Int, []want{{1, InBuf, byArgN(0, 4)}}},
		{"getresuid", Int, []want{{0, OutBuf, fixed(4)}, {1, OutBuf, fixed(4)}, {2, OutBuf, fixed(4)}}},
		{"getresgid", Int, []want{{0, OutBuf, fixed(4)}, {1, OutBuf, fixed(4)}, {2, OutBuf, fixed(4)}}},
		{"execve", Int, []want{{0, Path, Len{}}, {1, StrArray, Len{}}, {2, StrArray, Len{}}}},
		{"execveat", Int, []want{{0, DirFD, Len{}}, {1, Path, Len{}}, {2, StrArray, Len{}}, {3, StrArray, Len{}}}},
		{"set_tid_address", PID, []want{{0, Ptr, Len{}}}},
		{"mmap", Hex, []want{{0, Hex, Len{}}, {2, Flags, Len{}}, {3, Flags, Len{}}, {4, FD, Len{}}}},
		{"clone", PID, []want{{0, Flags, Len{}}}},
		{"clone3", PID, []want{{0, InBuf, byArg(1)}}},
		{"openat", FD, []want{{0, DirFD, Len{}}, {1, Path, Len{}}, {2, Flags, Len{}}, {3, Mode, Len{}}}},
		{"kill", Int, []want{{0, PID, Len{}}, {1, Signal, Len{}}}},
	}
	for _, c := range cases {
		r, ok := tab.ByName(c.call)
		if !ok || r.Unknown {
			t.Errorf("%s: no detailed row", c.call)
			continue
		}
		if r.Ret != c.ret {
			t.Errorf("%s: returns kind %d, want %d", c.call, r.Ret, c.ret)
		}
		for _, w := range c.args {
			if w.arg >= len(r.Args) {
				t.Errorf("%s: no argument %d", c.call, w.arg)
				continue
			}
			a := r.Args[w.arg]
			if a.Kind != w.kind || a.Len.From != w.len.From || a.Len.Arg != w.len.Arg || a.Len.Size != w.len.Size {
				t.Errorf("%s.%s: kind %d len %+v, want kind %d len %+v", c.call, a.Name, a.Kind, a.Len, w.kind, w.len)
			}
		}
	}
}

// Effects decided by an argument's value.
func TestEffectsFor(t *testing.T) {
	tab := amd64Table(t)
	args := func(v ...uint64) (a [6]uint64) { copy(a[:], v); return a }
	cases := []struct {
		call      string
		args      [6]uint64
		want, not Effect
	}{
		{"openat", args(neg32(unix.AT_FDCWD), 0, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC, 0o644), CreatesFD | CreatesPath | ModifiesFile | NamesPath, 0},
		{"openat", args(neg32(unix.AT_FDCWD), 0, unix.O_RDONLY|unix.O_CLOEXEC), CreatesFD | NamesPath, CreatesPath | ModifiesFile},
		{"open", args(0, unix.O_RDWR|unix.O_CREAT), CreatesPath, ModifiesFile},
		{"fcntl", args(3, unix.F_DUPFD_CLOEXEC, 10), DupsFD | CreatesFD, ChangesFDFlags},
		{"fcntl", args(3, unix.F_DUPFD, 10), DupsFD | CreatesFD, 0},
		{"fcntl", args(3, unix.F_SETFD, unix.FD_CLOEXEC), ChangesFDFlags, DupsFD | CreatesFD},
		{"fcntl", args(3, unix.F_GETFL), UsesFD, DupsFD | ChangesFDFlags},
		{"ioctl", args(3, 0x5451), ChangesFDFlags, 0}, // FIOCLEX
		{"ioctl", args(0, unix.TCGETS), UsesFD, ChangesFDFlags | ModifiesFile},
		{"prlimit64", args(0, unix.RLIMIT_NOFILE, 0, 0x7ff0), ReadsEnvironment, ChangesLimits},
		{"prlimit64", args(0, unix.RLIMIT_NOFILE, 0x7ff0, 0), ChangesLimits, 0},
		{"clone", args(unix.CLONE_NEWNET | uint64(unix.SIGCHLD)), CreatesProcess | ChangesNamespace, 0},
		{"clone", args(unix.CLONE_VM | unix.CLONE_THREAD), CreatesProcess, ChangesNamespace},
		{"prctl", args(unix.PR_SET_NAME, 0x1000), ChangesProcess, ReadsEnvironment},
		{"prctl", args(unix.PR_CAPBSET_READ, 1), ReadsEnvironment, ChangesProcess},
		{"sendto", args(3, 0x1000, 10, 0, 0x2000, 16), ConnectsAddress | ModifiesFile, 0},
		{"sendto", args(3, 0x1000, 10, 0, 0, 0), ModifiesFile, ConnectsAddress},
		{"close_range", args(3, ^uint64(0), unix.CLOSE_RANGE_CLOEXEC), ClosesFDRange | ChangesFDFlags, 0},
	}
	for _, c := range cases {
		r, _ := tab.ByName(c.call)
		got := r.EffectsFor(c.args)
		if got&c.want != c.want || got&c.not != 0 {
			t.Errorf("%s%v: effects %#x, want %#x and not %#x", c.call, c.args, got, c.want, c.not)
		}
	}
}

func TestIoctls(t *testing.T) {
	tab := amd64Table(t)
	seen := map[uint64]string{}
	for _, io := range amd64Ioctls() {
		if prev, dup := seen[io.Req]; dup {
			t.Errorf("request %#x listed as %s and %s", io.Req, prev, io.Name)
		}
		seen[io.Req] = io.Name
		switch {
		case io.Size == 0 && io.Dir == Int:
		case io.Size > 0 && (io.Dir == InBuf || io.Dir == OutBuf || io.Dir == InOutBuf):
		default:
			t.Errorf("%s: size %d dir %d", io.Name, io.Size, io.Dir)
		}
	}
	cases := []struct {
		req  uint64
		name string
		size uint32
		dir  Kind
	}{
		{unix.TCGETS, "TCGETS", 36, OutBuf},
		{unix.TCSETS, "TCSETS", 36, InBuf},
		{unix.TCSETSW, "TCSETSW", 36, InBuf},
		{unix.TCSETSF, "TCSETSF", 36, InBuf},
		{unix.TIOCGWINSZ, "TIOCGWINSZ", 8, OutBuf},
		{unix.TIOCSWINSZ, "TIOCSWINSZ", 8, InBuf},
		{0x541b, "FIONREAD", 4, OutBuf},
		{0x5421, "FIONBIO", 4, InBuf},
		{unix.TIOCGPGRP, "TIOCGPGRP", 4, OutBuf},
		{unix.TIOCSPGRP, "TIOCSPGRP", 4, InBuf},
		{0x5451, "FIOCLEX", 0, Int},
		{0x5450, "FIONCLEX", 0, Int},
		{unix.SIOCGIFFLAGS, "SIOCGIFFLAGS", 40, InOutBuf},
		{unix.SIOCGIFINDEX, "SIOCGIFINDEX", 40, InOutBuf},
	}
	for _, c := range cases {
		io, ok := tab.Ioctl(c.req)
		if !ok || io.Name != c.name || io.Size != c.size || io.Dir != c.dir {
			t.Errorf("Ioctl(%#x) = %+v, %v; want %s %d %d", c.req, io, ok, c.name, c.size, c.dir)
		}
	}
	if _, ok := tab.Ioctl(unix.SIOCGIFCONF); ok {
		t.Error("SIOCGIFCONF's ifreq array cannot be captured: it must not have a size")
	}
	r, _ := tab.ByName("ioctl")
	if got := r.Args[1].Flags.Format(unix.SIOCGIFCONF); got != "SIOCGIFCONF" {
		t.Errorf("ioctl request SIOCGIFCONF prints %q", got)
	}
}

func TestFcntlSize(t *testing.T) {
	cases := []struct {
		cmd  uint64
		size uint32
		dir  Kind
	}{
		{unix.F_GETLK, 32, InOutBuf},
		{unix.F_OFD_GETLK, 32, InOutBuf},
		{unix.F_SETLK, 32, InBuf},
		{unix.F_SETLKW, 32, InBuf},
		{unix.F_OFD_SETLK, 32, InBuf},
		{unix.F_OFD_SETLKW, 32, InBuf},
		{unix.F_GETOWN_EX, 8, OutBuf},
		{unix.F_SETOWN_EX, 8, InBuf},
		{unix.F_DUPFD, 0, Int},
		{unix.F_SETFL, 0, Int},
		{unix.F_GETFD, 0, Int},
		{0xdead, 0, Int},
	}
	for _, c := range cases {
		size, dir := FcntlSize(c.cmd)
		if size != c.size || dir != c.dir {
			t.Errorf("FcntlSize(%s) = %d, %d; want %d, %d", FcntlCmds.Format(c.cmd), size, dir, c.size, c.dir)
		}
	}
	if FcntlFlags(unix.F_SETFL) != OpenFlags || FcntlFlags(unix.F_GETFD) != FDFlags || FcntlFlags(unix.F_DUPFD) != nil {
		t.Error("FcntlFlags")
	}
}

func TestPrctlSize(t *testing.T) {
	cases := []struct {
		op   uint64
		size uint32
		dir  Kind
	}{
		{unix.PR_GET_NAME, 16, OutBuf},
		{unix.PR_SET_NAME, 16, InBuf},
		{unix.PR_GET_PDEATHSIG, 4, OutBuf},
		{unix.PR_SET_PDEATHSIG, 0, Int},
		{unix.PR_SET_NO_NEW_PRIVS, 0, Int},
	}
	for _, c := range cases {
		if size, dir := PrctlSize(c.op); size != c.size || dir != c.dir {
			t.Errorf("PrctlSize(%s) = %d, %d", PrctlOptions.Format(c.op), size, dir)
		}
	}
}

// TestObjectColumns: Makes is set only on rows that create fds, and the
// offset/directory/state bits only on rows that act on an fd or a path.
func TestObjectColumns(t *testing.T) {
	tab, err := New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tab.All() {
		all := r.Effects
		for _, c := range r.Cond {
			all |= c.Effect
		}
		if r.Makes != nil && all&CreatesFD == 0 {
			t.Errorf("%s names an object (%s) but creates no fd", r.Name, r.Makes.Kind)
		}
		if r.Effects&(MovesOffset|ChangesFDState) != 0 && all&(UsesFD|CreatesFD) == 0 {
			t.Errorf("%s moves an offset or changes fd state but uses no fd", r.Name)
		}
		if r.Effects&ActsOnDirectory != 0 && all&(UsesFD|NamesPath) == 0 {
			t.Errorf("%s acts on a directory but names no path or fd", r.Name)
		}
	}
}

// TestReturnSizedBuffersBounded: replay writes a recorded buffer into the
// live one only up to its capacity, so every buffer the kernel fills by
// the return value must name the argument that bounds it.
func TestReturnSizedBuffersBounded(t *testing.T) {
	tab, err := Native()
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tab.All() {
		for _, a := range row.Args {
			if a.Kind == OutBuf && a.Len.From == LenRet && !a.Len.Bounded {
				t.Errorf("%s.%s: sized by the return value with no capacity argument", row.Name, a.Name)
			}
		}
	}
	read, _ := tab.ByName("read")
	if n, ok := read.Capacity(1, [6]uint64{3, 0x1000, 4096}, tab); !ok || n != 4096 {
		t.Errorf("read's capacity = %d, %v; want 4096", n, ok)
	}
	ew, _ := tab.ByName("epoll_wait")
	if n, ok := ew.Capacity(1, [6]uint64{3, 0x1000, 0x7fff00000008}, tab); !ok || n != 96 {
		t.Errorf("epoll_wait's capacity = %d, %v; want 8 events of 12 bytes (maxevents is an int)", n, ok)
	}
}

// TestKernelNames: uname is the one call that answers with the kernel's
// names, in a struct new_utsname out-buffer whose release and version a
// run rewrites; it is no NoStop call.
func TestKernelNames(t *testing.T) {
	tab := amd64Table(t)
	if got := tab.KernelNames(); !slices.Equal(got, []string{"uname"}) {
		t.Fatalf("KernelNames() = %v, want [uname]", got)
	}
	for _, name := range tab.KernelNames() {
		r, _ := tab.ByName(name)
		if r.NoStop || len(r.Args) != 1 || r.Args[0].Kind != OutBuf {
			t.Errorf("%s: a kernel-names call must stop and have one out-buffer", name)
			continue
		}
		st := StructOf(r.Args[0].Struct)
		if st.Is != StructUtsname || st.Field("release").Size != 65 || st.Field("version").Off != 195 {
			t.Errorf("%s: its buffer is %q, not a struct new_utsname", name, r.Args[0].Struct)
		}
	}
}
