package render

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

const atCWD = uint64(1<<64 - 100) // AT_FDCWD as the register holds it

func neg(n int64) uint64 { return uint64(n) }

// statAmd64 builds an amd64 struct stat with mode and size.
func statAmd64(mode uint32, size int64) string {
	b := make([]byte, 144)
	binary.LittleEndian.PutUint32(b[24:], mode)
	binary.LittleEndian.PutUint64(b[48:], uint64(size))
	return string(b)
}

// sockaddrIn builds a struct sockaddr_in.
func sockaddrIn(ip [4]byte, port uint16) string {
	b := make([]byte, 16)
	binary.LittleEndian.PutUint16(b, 2)
	binary.BigEndian.PutUint16(b[2:], port)
	copy(b[4:], ip[:])
	return string(b)
}

func sockaddrIn6(ip [16]byte, port uint16) string {
	b := make([]byte, 28)
	binary.LittleEndian.PutUint16(b, 10)
	binary.BigEndian.PutUint16(b[2:], port)
	copy(b[8:], ip[:])
	return string(b)
}

func sockaddrUnix(path string) string {
	b := []byte{1, 0}
	return string(append(b, path...))
}

func dirent(ino uint64, typ uint8, name string) string {
	reclen := (19 + len(name) + 1 + 7) &^ 7
	b := make([]byte, reclen)
	binary.LittleEndian.PutUint64(b, ino)
	binary.LittleEndian.PutUint16(b[16:], uint16(reclen))
	b[18] = typ
	copy(b[19:], name)
	return string(b)
}

func utsnameBytes(fields ...string) string {
	b := make([]byte, 6*65)
	for i, f := range fields {
		copy(b[i*65:], f)
	}
	return string(b)
}

func u64s(vs ...uint64) string {
	b := make([]byte, 8*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	return string(b)
}

func TestCallString(t *testing.T) {
	rows := fakeRows{}
	for k, v := range testRows {
		rows[k] = v
	}
	rows[98] = &systable.Syscall{Nr: 98, Name: "getrusage", Args: []systable.Arg{{Name: "who", Kind: systable.Int},
		{Name: "usage", Kind: systable.OutBuf, Len: systable.Len{From: systable.LenFixed, Size: 144}, Struct: "struct rusage"}}, Ret: systable.Int}
	rows[7] = &systable.Syscall{Nr: 7, Name: "poll", Args: []systable.Arg{
		{Name: "fds", Kind: systable.InOutBuf, Len: systable.Len{From: systable.LenArg, Arg: 1, Size: 8}, Struct: "struct pollfd[]"},
		{Name: "nfds", Kind: systable.Int}, {Name: "timeout", Kind: systable.Int}}, Ret: systable.Int}
	rows[280] = &systable.Syscall{Nr: 280, Name: "utimensat", Args: []systable.Arg{{Name: "dirfd", Kind: systable.DirFD},
		{Name: "pathname", Kind: systable.Path},
		{Name: "times", Kind: systable.InBuf, Len: systable.Len{From: systable.LenFixed, Size: 32}, Struct: "struct timespec[2]"},
		{Name: "flags", Kind: systable.Flags, Flags: atFlags}}, Ret: systable.Int}
	rows[437] = &systable.Syscall{Nr: 437, Name: "openat2", Args: []systable.Arg{{Name: "dirfd", Kind: systable.DirFD},
		{Name: "pathname", Kind: systable.Path},
		{Name: "how", Kind: systable.InBuf, Len: systable.Len{From: systable.LenArg, Arg: 3}, Struct: "struct open_how"},
		{Name: "size", Kind: systable.Int}}, Ret: systable.FD}
	rows[nrUmask] = &systable.Syscall{Nr: nrUmask, Name: "umask", Args: []systable.Arg{{Name: "mask", Kind: systable.Mode}}, Ret: systable.Mode}

	tests := []struct {
		name string
		c    *trace.Call
		size int // -s; 0 means DefaultStringSize
		want string
	}{
		{"openat", withMem(call(nrOpenat, 3, atCWD, 0x1000, 0o2000000, 0), in(1, "/etc/hosts\x00")),
			0, `openat(AT_FDCWD, "/etc/hosts", O_RDONLY|O_CLOEXEC) = 3`},
		{"openat ENOENT", withMem(call(nrOpenat, -2, atCWD, 0x1000, 0, 0), in(1, "/nope")),
			0, `openat(AT_FDCWD, "/nope", O_RDONLY) = -1 ENOENT (No such file or directory)`},
		{"openat O_CREAT mode", withMem(call(nrOpenat, 4, 5, 0x1000, 0o1101, 0o644), in(1, "out.txt\x00")),
			0, `openat(5, "out.txt", O_WRONLY|O_CREAT|O_TRUNC, 0644) = 4`},
		{"path not captured", call(nrOpenat, -14, atCWD, 0xdead, 0, 0),
			0, `openat(AT_FDCWD, 0xdead, O_RDONLY) = -1 EFAULT (Bad address)`},
		{"read", withMem(call(nrRead, 6, 3, 0x2000, 4096), out(1, "hello\n")),
			0, `read(3, "hello\n", 4096) = 6`},
		{"read cut at -s", withMem(call(nrRead, 16, 3, 0x2000, 4096), out(1, "abcdefghijklmnop")),
			8, `read(3, "abcdefgh"..., 4096) = 16`},
		{"read exactly -s", withMem(call(nrRead, 8, 3, 0x2000, 4096), out(1, "abcdefgh")),
			8, `read(3, "abcdefgh", 4096) = 8`},
		{"read non-printable", withMem(call(nrRead, 10, 3, 0x2000, 4096), out(1, "\x00\x01\tA\"\\\x7f\xff\r\n")),
			0, `read(3, "\x00\x01\tA\"\\\x7f\xff\r\n", 4096) = 10`},
		{"read EOF", withMem(call(nrRead, 0, 3, 0x2000, 4096), out(1, "")),
			0, `read(3, "", 4096) = 0`},
		{"read error", call(nrRead, -9, 3, 0x7ffd0000, 4096),
			0, `read(3, 0x7ffd0000, 4096) = -1 EBADF (Bad file descriptor)`},
		{"read excluded", withMem(call(nrRead, 100, 3, 0x2000, 4096), trace.Mem{Arg: 1, Dir: trace.Out, Len: 100, Flag: trace.Excluded}),
			0, `read(3, <excluded 100 bytes>, 4096) = 100`},
		{"read truncated", withMem(call(nrRead, 10000, 3, 0x2000, 10000), trace.Mem{Arg: 1, Dir: trace.Out, Len: 10000, Flag: trace.Truncated, Data: []byte("abc")}),
			0, `read(3, "abc"...<truncated, 3 of 10000 bytes>, 10000) = 10000`},
		{"write", withMem(call(nrWrite, 3, 1, 0x3000, 3), in(1, "hi\n")),
			0, `write(1, "hi\n", 3) = 3`},
		{"write fault", withMem(call(nrWrite, -14, 1, 0xdead, 5), trace.Mem{Arg: 1, Dir: trace.In, Len: 5, Flag: trace.Fault}),
			0, `write(1, 0xdead, 5) = -1 EFAULT (Bad address)`},
		{"writev", withMem(call(nrWritev, 12, 1, 0x4000, 2), part(in(1, "hello world\n"), trace.PartIovData)),
			0, `writev(1, {iov_data="hello world\n", total=12}, 2) = 12`},
		{"execve", withMem(call(nrExecve, 0, 0x1000, 0x2000, 0x7ffe0000), in(0, "/bin/ls\x00"),
			part(in(1, "ls\x00-l\x00a b\x00"), trace.PartStrings), part(in(2, "A=1\x00B=2\x00"), trace.PartStrings)),
			0, `execve("/bin/ls", ["ls", "-l", "a b"], 0x7ffe0000 /* 2 vars */) = 0`},
		{"newfstatat", withMem(call(nrNewfstatat, 0, atCWD, 0x1000, 0x2000, 0), in(1, "/etc/hosts\x00"), out(2, statAmd64(0o100644, 1234))),
			0, `newfstatat(AT_FDCWD, "/etc/hosts", {st_mode=S_IFREG|0644, st_size=1234, ...}, 0) = 0`},
		{"newfstatat dir nofollow", withMem(call(nrNewfstatat, 0, atCWD, 0x1000, 0x2000, 0x100), in(1, "/tmp\x00"), out(2, statAmd64(0o41777, 4096))),
			0, `newfstatat(AT_FDCWD, "/tmp", {st_mode=S_IFDIR|01777, st_size=4096, ...}, AT_SYMLINK_NOFOLLOW) = 0`},
		{"connect inet", withMem(call(nrConnect, 0, 3, 0x5000, 16), in(1, sockaddrIn([4]byte{127, 0, 0, 1}, 80))),
			0, `connect(3, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("127.0.0.1")}, 16) = 0`},
		{"connect inet6", withMem(call(nrConnect, -111, 3, 0x5000, 28), in(1, sockaddrIn6([16]byte{15: 1}, 443))),
			0, `connect(3, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 ECONNREFUSED (Connection refused)`},
		{"connect unix", withMem(call(nrConnect, 0, 3, 0x5000, 110), in(1, sockaddrUnix("/run/x.sock\x00"))),
			0, `connect(3, {sa_family=AF_UNIX, sun_path="/run/x.sock"}, 110) = 0`},
		{"connect abstract", withMem(call(nrConnect, 0, 3, 0x5000, 7), in(1, sockaddrUnix("\x00name"))),
			0, `connect(3, {sa_family=AF_UNIX, sun_path=@"name"}, 7) = 0`},
		{"accept", withMem(call(nrAccept, 4, 3, 0x5000, 0x6000), out(1, sockaddrIn([4]byte{10, 0, 0, 2}, 5555)),
			in(2, "\x10\x00\x00\x00"), out(2, "\x10\x00\x00\x00")),
			0, `accept(3, {sa_family=AF_INET, sin_port=htons(5555), sin_addr=inet_addr("10.0.0.2")}, [16]) = 4`},
		{"unknown syscall", call(999, 0, 1, 0, 0xff),
			0, `syscall_999(0x1, 0, 0xff, 0, 0, 0) = 0 /* unknown syscall */`},
		{"exit_group", &trace.Call{Nr: nrExitGroup, Args: [6]uint64{1}, NoReturn: true},
			0, `exit_group(1) = ?`},
		{"kill", call(nrKill, 0, 123, 15),
			0, `kill(123, SIGTERM) = 0`},
		{"kill negative pid", call(nrKill, -3, neg(-1), 9),
			0, `kill(-1, SIGKILL) = -1 ESRCH (No such process)`},
		{"mmap", call(nrMmap, 0x7f0000000000, 0, 4096, 3, 0x22, neg(-1), 0),
			0, `mmap(NULL, 4096, 0x3, 0x22, -1, 0) = 0x7f0000000000`},
		{"ioctl request name", call(nrIoctl, -25, 1, 0x5401, 0x7ffd0000),
			0, `ioctl(1, TCGETS, 0x7ffd0000) = -1 ENOTTY (Inappropriate ioctl for device)`},
		{"pipe2", withMem(call(nrPipe2, 0, 0x7000, 0o2000000), out(0, "\x03\x00\x00\x00\x04\x00\x00\x00")),
			0, `pipe2([3, 4], O_RDONLY|O_CLOEXEC) = 0`},
		{"uname", withMem(call(nrUname, 0, 0x8000), out(0, utsnameBytes("Linux", "box", "6.1.0", "#1 SMP", "x86_64", "(none)"))),
			0, `uname({sysname="Linux", nodename="box", release="6.1.0", ...}) = 0`},
		{"umask", call(nrUmask, 0o22, 0o77),
			0, `umask(077) = 022`},
		{"getdents64", withMem(call(nrGetdents64, 48, 3, 0x9000, 32768), out(1, dirent(2, 4, ".")+dirent(12, 8, "hosts"))),
			0, `getdents64(3, [{d_ino=2, d_type=DT_DIR, d_name="."}, {d_ino=12, d_type=DT_REG, d_name="hosts"}], 32768) = 48`},
		{"prlimit64", withMem(call(nrPrlimit64, 0, 0, 7, 0, 0xa000), out(3, u64s(1024, ^uint64(0)))),
			0, `prlimit64(0, 7, NULL, {rlim_cur=1024, rlim_max=RLIM64_INFINITY}) = 0`},
		{"struct not decoded", withMem(call(98, 0, 0, 0xb000), out(1, strings.Repeat("\x00", 144))),
			0, `getrusage(0, {...144 bytes}) = 0`},
		{"poll", withMem(call(7, 1, 0xc000, 2, 100),
			in(0, "\x03\x00\x00\x00\x01\x00\x00\x00\x04\x00\x00\x00\x04\x00\x00\x00"),
			out(0, "\x03\x00\x00\x00\x01\x00\x01\x00\x04\x00\x00\x00\x04\x00\x00\x00")),
			0, `poll([{fd=3, events=POLLIN, revents=POLLIN}, {fd=4, events=POLLOUT, revents=0}], 2, 100) = 1`},
		{"utimensat", withMem(call(280, 0, atCWD, 0x1000, 0x2000, 0), in(1, "f\x00"), in(2, u64s(1, 2, 3, 4))),
			0, `utimensat(AT_FDCWD, "f", [{tv_sec=1, tv_nsec=2}, {tv_sec=3, tv_nsec=4}], 0) = 0`},
		{"openat2", withMem(call(437, 3, atCWD, 0x1000, 0x2000, 24), in(1, "f\x00"), in(2, u64s(0o2000000, 0, 0x8))),
			0, `openat2(AT_FDCWD, "f", {flags=O_RDONLY|O_CLOEXEC, mode=000, resolve=RESOLVE_BENEATH}, 24) = 3`},
		{"restart errno", call(nrRead, -512, 0, 0x2000, 10),
			0, `read(0, 0x2000, 10) = -1 ERESTARTSYS (To be restarted if SA_RESTART is set)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &decoder{tab: rows, layout: layoutFor("amd64")}
			size := tt.size
			if size == 0 {
				size = DefaultStringSize
			}
			if got := callString(d, tt.c, size); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestCallStringUnknownArch(t *testing.T) {
	// Without a layout for the architecture, struct stat prints as its size.
	c := withMem(call(nrNewfstatat, 0, atCWD, 0x1000, 0x2000, 0), in(1, "/x\x00"), out(2, statAmd64(0o100644, 1)))
	got := callString(&decoder{tab: testRows}, c, 32)
	want := `newfstatat(AT_FDCWD, "/x", {...144 bytes}, 0) = 0`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestQuote(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"", 0, `""`},
		{"abc", 0, `"abc"`},
		{"abc", 2, `"ab"...`},
		{"abc", 3, `"abc"`},
		{"\x1b[0m\v\f", 0, `"\x1b[0m\v\f"`},
		{"é", 0, `"\xc3\xa9"`},
	}
	for _, tt := range tests {
		if got := Quote([]byte(tt.in), tt.limit); got != tt.want {
			t.Errorf("Quote(%q, %d) = %s, want %s", tt.in, tt.limit, got, tt.want)
		}
	}
}

func TestSpawnCall(t *testing.T) {
	for flags, want := range map[uint64]string{0: "fork", 0x11: "fork", 0x1200011: "fork", 0x4111: "vfork", 0x111: "clone"} {
		if got := spawnCall(flags); got != want {
			t.Errorf("spawnCall(%#x) = %s, want %s", flags, got, want)
		}
	}
}

func TestFormatMode(t *testing.T) {
	for v, want := range map[uint64]string{0: "000", 0o22: "022", 0o644: "0644", 0o4755: "04755", 0o100600: "S_IFREG|0600", 0o20666: "S_IFCHR|0666"} {
		if got := formatMode(v); got != want {
			t.Errorf("formatMode(%#o) = %s, want %s", v, got, want)
		}
	}
}

// TestText drives a whole trace through Text: header, start events,
// threads, process events and the end.
func TestText(t *testing.T) {
	var buf bytes.Buffer
	r := NewText(&buf, testRows, Options{StringSize: DefaultStringSize})
	h := &trace.Header{Tool: "0.1", Arch: "amd64", Kernel: "6.1.0", Host: "box", Command: []string{"sh", "-c", "cat x"},
		Cwd: "/src", Started: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Backend: trace.BackendPtraceSeccomp,
		Filtered: []string{"getpid", "gettid"}}
	start := []trace.StartEvent{
		{Kind: trace.StartArgv, Name: "0", Value: "sh"},
		{Kind: trace.StartEnv, Name: "LANG", Value: "C.UTF-8"},
		{Kind: trace.StartEnv, Name: "PS1", Value: "$ "},
		{Kind: trace.StartCwd, Value: "/src"},
		{Kind: trace.StartRlimit, Name: "RLIMIT_NOFILE", Value: "1024 4096"},
	}
	openOK := withMem(call(nrOpenat, 3, atCWD, 0x1000, 0, 0), in(1, "x\x00"))
	openOK.Proc, openOK.Thread, openOK.Seq = 2, 2, 2
	thr := withMem(call(nrRead, 2, 3, 0x2000, 2), out(1, "hi"))
	thr.Proc, thr.Thread, thr.Seq = 2, 3, 3
	exit := &trace.Call{Seq: 4, Proc: 2, Thread: 2, Nr: nrExitGroup, NoReturn: true}
	events := []trace.Event{
		{Call: withMem(call(nrWrite, 3, 1, 0x3000, 3), in(1, "hi\n"))},
		{Proc: &trace.ProcEvent{Kind: trace.Spawn, Proc: 2, Thread: 2, Parent: 1, ParentThread: 1, CloneFlags: 0x111}},
		{Proc: &trace.ProcEvent{Kind: trace.Exec, Proc: 2, Thread: 2, Exe: "/bin/cat", Argv: []string{"cat", "x"}}},
		{Call: openOK},
		{Proc: &trace.ProcEvent{Kind: trace.SpawnThread, Proc: 2, Thread: 3, ParentThread: 2}},
		{Call: thr},
		{Proc: &trace.ProcEvent{Kind: trace.ExitThread, Proc: 2, Thread: 3}},
		{Call: exit},
		{Proc: &trace.ProcEvent{Kind: trace.Exit, Proc: 2, Thread: 2, Status: 1}},
		{Proc: &trace.ProcEvent{Kind: trace.Spawn, Proc: 3, Thread: 4, Parent: 1, ParentThread: 1, CloneFlags: 0x4111}},
		{Proc: &trace.ProcEvent{Kind: trace.Exit, Proc: 3, Thread: 4, Status: 137, Signal: 9}},
	}
	if err := r.Begin(h, start); err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		if err := r.Event(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Finish(&trace.End{ExitCode: 1, Calls: 4, Procs: 3, Threads: 4}); err != nil {
		t.Fatal(err)
	}
	want := `# command: sh -c 'cat x'
# recorded: 2025-01-02T03:04:05Z, host box, Linux 6.1.0, amd64, ptrace+seccomp, by envbisect 0.1
# cwd: /src
# not recorded (never stop the tracee): getpid gettid
# start: argv[0]=sh
# start: env LANG=C.UTF-8
# start: env PS1="$ "
# start: cwd /src
# start: rlimit RLIMIT_NOFILE="1024 4096"
[1] write(1, "hi\n", 3) = 3
[1] --- spawned [2] by clone ---
[2] --- exec /bin/cat ["cat", "x"] ---
[2] openat(AT_FDCWD, "x", O_RDONLY) = 3
[2] --- spawned thread [2:3] by clone ---
[2:3] read(3, "hi", 2) = 2
[2:3] +++ thread exited +++
[2] exit_group(0) = ?
[2] +++ exited with 1 +++
[1] --- spawned [3] by vfork ---
[3] +++ killed by SIGKILL +++
# end: exited with 1; 4 calls, 3 processes, 4 threads
`
	if got := buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestTextFilterAndOptions(t *testing.T) {
	c1 := withMem(call(nrWrite, 3, 1, 0x3000, 3), in(1, "hi\n"))
	c2 := withMem(call(nrRead, 2, 0, 0x2000, 2), out(1, "yo"))
	c2.Proc, c2.Thread, c2.Seq = 2, 2, 7
	spawn := &trace.ProcEvent{Kind: trace.Spawn, Proc: 2, Thread: 2, Parent: 1, ParentThread: 1}
	exit1 := &trace.ProcEvent{Kind: trace.Exit, Proc: 1, Thread: 1}
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"all", Options{}, "[1] write(1, \"hi\\n\", 3) = 3\n[1] --- spawned [2] by fork ---\n[2] read(0, \"yo\", 2) = 2\n[1] +++ exited with 0 +++\n"},
		{"syscalls", Options{Filter: Filter{Syscalls: map[uint32]bool{nrRead: true}}},
			"[1] --- spawned [2] by fork ---\n[2] read(0, \"yo\", 2) = 2\n[1] +++ exited with 0 +++\n"},
		{"procs", Options{Filter: Filter{Procs: map[uint32]bool{2: true}}}, "[1] --- spawned [2] by fork ---\n[2] read(0, \"yo\", 2) = 2\n"},
		{"seq", Options{Seq: true, StringSize: 1}, "#1 [1] write(1, \"h\"..., 3) = 3\n[1] --- spawned [2] by fork ---\n#7 [2] read(0, \"y\"..., 2) = 2\n[1] +++ exited with 0 +++\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			r := NewText(&buf, testRows, tt.o)
			for _, ev := range []trace.Event{{Call: c1}, {Proc: spawn}, {Call: c2}, {Proc: exit1}} {
				if err := r.Event(ev); err != nil {
					t.Fatal(err)
				}
			}
			if got := buf.String(); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestTextNoStartAndCutShort(t *testing.T) {
	var buf bytes.Buffer
	r := NewText(&buf, testRows, Options{NoStart: true})
	if err := r.Begin(&trace.Header{Arch: "amd64", Command: []string{"true"}}, []trace.StartEvent{{Kind: trace.StartCwd, Value: "/"}}); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(nil); err != nil {
		t.Fatal(err)
	}
	want := "# command: true\n# recorded: amd64\n# end: missing, the trace was cut short\n"
	if got := buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// FuzzCallString feeds arbitrary captured memory to every test row: no
// input may make the decoders panic, and JSON must always encode.
func FuzzCallString(f *testing.F) {
	f.Add(uint16(nrNewfstatat), uint8(2), uint8(trace.Out), []byte(statAmd64(0o100644, 1)), int64(0))
	f.Add(uint16(nrConnect), uint8(1), uint8(trace.In), []byte(sockaddrIn6([16]byte{15: 1}, 443)), int64(0))
	f.Add(uint16(nrGetdents64), uint8(1), uint8(trace.Out), []byte(dirent(1, 4, ".")), int64(24))
	f.Add(uint16(nrExecve), uint8(1), uint8(trace.In), []byte("a\x00b"), int64(0))
	f.Add(uint16(nrAccept), uint8(2), uint8(trace.Out), []byte{1, 2, 3}, int64(-512))
	f.Fuzz(func(t *testing.T, nr uint16, arg, dir uint8, data []byte, ret int64) {
		c := call(uint32(nr), ret, 1, 2, 3, 4, 5, 6)
		for p := trace.PartWhole; p <= trace.PartStrings; p++ {
			c.Mem = append(c.Mem, trace.Mem{Arg: arg % 6, Part: p, Dir: trace.Dir(dir%2 + 1), Len: uint64(len(data)), Data: data})
		}
		d := &decoder{tab: testRows, layout: layoutFor("amd64")}
		_ = callString(d, c, 8)
		if _, err := marshalNoEscape(jsonCall(d, c, 0)); err != nil {
			t.Fatal(err)
		}
	})
}

func TestTextEndVerdict(t *testing.T) {
	var b strings.Builder
	r := NewText(&b, testRows, Options{})
	if err := r.Finish(&trace.End{ExitCode: 137, Signal: 9, Calls: 4, Procs: 1, Threads: 1, Verdict: "pass"}); err != nil {
		t.Fatal(err)
	}
	if want := "# end: killed by SIGKILL (exit code 137); 4 calls, 1 processes, 1 threads; the run was judged pass\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
