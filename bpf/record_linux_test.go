//go:build linux && amd64

package bpf

import (
	"bytes"
	"encoding/hex"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
)

// TestRecordCalls records the victim's calls mode and checks every kind
// of capture against what the program passed or got.
func TestRecordCalls(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF)
	bin := buildVictim(t)
	dir := t.TempDir()
	in, out := dir+"/input.txt", dir+"/output.txt"
	content := []byte("eBPF recorder test input\nsecond line\n")
	if err := os.WriteFile(in, content, 0o644); err != nil {
		t.Fatal(err)
	}

	p := loadProbe(t, Options{Filter: Filter{Kind: FilterTree}, RingSize: 1 << 22, MaxCapture: 100})
	v := startVictim(t, bin, "calls", in, out)
	if err := p.Track(v.pid); err != nil {
		t.Fatal(err)
	}
	v.release(t)
	recs := collect(t, p, v.pid)
	if code := v.wait(t); code != 3 {
		t.Fatalf("victim exited %d, want 3", code)
	}
	lost, err := p.Lost()
	if err != nil {
		t.Fatal(err)
	}
	if lost != (Lost{}) {
		t.Errorf("Lost = %+v, want nothing lost", lost)
	}
	calls := assemble(t, recs)

	t.Run("openat path and read contents", func(t *testing.T) {
		opens := find(calls, unix.SYS_OPENAT, hasPath(in))
		if len(opens) != 1 || opens[0].Ret < 0 {
			t.Fatalf("want one successful openat of %s, got %d", in, len(opens))
		}
		b, _, _ := opens[0].buf(1, trace.PartWhole)
		if b.Dir != DirIn || b.Len != uint64(len(in)) || b.Want != uint32(len(in)) || b.Truncated {
			t.Errorf("openat path buffer %+v", *b)
		}
		fd := uint64(opens[0].Ret)
		// The call after the open (the dynamic loader may read fd 3 too).
		reads := find(calls, unix.SYS_READ, func(c *call) bool {
			return c.TID == v.pid && c.Args[0] == fd && c.TSeq == opens[0].TSeq+1
		})
		if len(reads) != 1 {
			t.Fatalf("want one read of fd %d, got %d", fd, len(reads))
		}
		b, d, fault := reads[0].buf(1, trace.PartWhole)
		if b == nil || fault || b.Dir != DirOut || !bytes.Equal(d, content) || b.Len != uint64(len(content)) {
			t.Errorf("read buffer %+v data %q, want %q", b, d, content)
		}
	})

	t.Run("write in-buffers", func(t *testing.T) {
		var got []string
		for _, c := range find(calls, unix.SYS_WRITE, func(c *call) bool { return c.TID == v.pid }) {
			_, d, _ := c.buf(1, trace.PartWhole)
			got = append(got, string(d))
		}
		if !slices.Contains(got, "written by victim\n") {
			t.Errorf("writes captured %q, want one of %q", got, "written by victim\n")
		}
	})

	t.Run("iovecs and msghdrs", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			nr   uint32
			arg  uint8
			dir  uint8
			want string
		}{
			{"writev", unix.SYS_WRITEV, 1, DirIn, "iov-one iov-two\n"},
			{"sendmsg", unix.SYS_SENDMSG, 1, DirIn, "msg-part-1 msg-part-2"},
			{"recvmsg", unix.SYS_RECVMSG, 1, DirOut, "msg-part-1 msg-part-2"},
		} {
			cs := find(calls, tc.nr, nil)
			if len(cs) != 1 {
				t.Errorf("%s: %d calls, want 1", tc.name, len(cs))
				continue
			}
			b, d, fault := cs[0].buf(tc.arg, trace.PartIovData)
			if b == nil || fault || b.Dir != tc.dir || string(d) != tc.want || b.Len != uint64(len(tc.want)) {
				t.Errorf("%s: buffer %+v data %q, want %q", tc.name, b, d, tc.want)
			}
		}
	})

	t.Run("truncated to MaxCapture", func(t *testing.T) {
		cs := find(calls, unix.SYS_WRITE, func(c *call) bool { return c.Args[2] == 1000 })
		if len(cs) != 1 {
			t.Fatalf("%d writes of 1000 bytes, want 1", len(cs))
		}
		b, d, _ := cs[0].buf(1, trace.PartWhole)
		if b.Len != 1000 || b.Want != 100 || !b.Truncated || !bytes.Equal(d, bytes.Repeat([]byte{'x'}, 100)) {
			t.Errorf("big write buffer %+v with %d bytes, want Len 1000 > Want 100 and 100 x", *b, len(d))
		}
	})

	t.Run("fault", func(t *testing.T) {
		cs := find(calls, unix.SYS_WRITE, func(c *call) bool { return c.Args[1] == 8 })
		if len(cs) != 1 || cs[0].Ret != -int64(unix.EFAULT) {
			t.Fatalf("want one write from address 8 failing with EFAULT, got %d", len(cs))
		}
		b, d, fault := cs[0].buf(1, trace.PartWhole)
		if b == nil || !fault || len(d) != 0 || b.Len != 16 {
			t.Errorf("faulting write buffer %+v data %q: want Len 16, a fault, no data", b, d)
		}
	})

	t.Run("thread", func(t *testing.T) {
		cs := find(calls, unix.SYS_OPENAT, hasPath("/envbisect-bpf-test/thread"))
		if len(cs) != 1 || cs[0].TID == v.pid || cs[0].TGID != v.pid {
			t.Fatalf("want the thread's openat in a thread of %d, got %d calls", v.pid, len(cs))
		}
		tid := cs[0].TID
		if !slices.ContainsFunc(recs, func(r Record) bool {
			return r.Fork != nil && r.Fork.Thread && r.Fork.ChildTID == tid && r.Fork.ParentTGID == v.pid && r.Fork.ChildTGID == v.pid
		}) {
			t.Errorf("no thread Fork record for %d", tid)
		}
		if !slices.ContainsFunc(recs, func(r Record) bool { return r.Exit != nil && r.Exit.TID == tid && !r.Exit.GroupDead }) {
			t.Errorf("no Exit record for thread %d", tid)
		}
	})

	t.Run("fork, exec, exit", func(t *testing.T) {
		var child uint32
		for _, r := range recs {
			if r.Fork != nil && !r.Fork.Thread && r.Fork.ParentTGID == v.pid {
				child = r.Fork.ChildTGID
				if r.Fork.ChildTID != child || r.Fork.ParentTID != v.pid {
					t.Errorf("process Fork %+v", *r.Fork)
				}
			}
		}
		if child == 0 {
			t.Fatal("no Fork record of a process")
		}
		if !slices.ContainsFunc(recs, func(r Record) bool {
			return r.Exec != nil && r.Exec.TID == child && r.Exec.OldTID == child && r.Exec.TGID == child && r.Exec.Filename == bin
		}) {
			t.Errorf("no Exec record of %d with file name %s", child, bin)
		}
		execs := find(calls, unix.SYS_EXECVE, func(c *call) bool { return c.TID == child })
		if len(execs) != 1 || execs[0].Ret != 0 {
			t.Fatalf("want one successful execve by %d, got %d", child, len(execs))
		}
		e := execs[0]
		if _, d, _ := e.buf(0, trace.PartWhole); string(d) != bin {
			t.Errorf("execve path %q, want %q", d, bin)
		}
		if b, d, _ := e.buf(1, trace.PartStrings); b == nil || string(d) != bin+"\x00child\x00" || b.Len != uint64(len(d)) {
			t.Errorf("execve argv %+v %q, want %q", b, d, bin+"\x00child\x00")
		}
		if b, d, _ := e.buf(2, trace.PartStrings); b == nil || len(d) == 0 || d[len(d)-1] != 0 || b.Len != uint64(len(d)) {
			t.Errorf("execve envp %+v %q: want NUL-terminated strings", b, d)
		}
		wantExit := map[uint32]uint32{child: 4 << 8, v.pid: 3 << 8}
		for tgid, code := range wantExit {
			if !slices.ContainsFunc(recs, func(r Record) bool {
				return r.Exit != nil && r.Exit.TID == tgid && r.Exit.TGID == tgid && r.Exit.GroupDead && r.Exit.Code == code
			}) {
				t.Errorf("no group-dead Exit of %d with code %#x", tgid, code)
			}
		}
		ends := find(calls, unix.SYS_EXIT_GROUP, func(c *call) bool { return c.TID == v.pid })
		if len(ends) != 1 || !ends[0].NoReturn || ends[0].Args[0] != 3 || ends[0].Exit != 0 {
			t.Errorf("want one NoReturn exit_group(3) by %d, got %d", v.pid, len(ends))
		}
	})

	t.Run("per-thread sequence", func(t *testing.T) {
		seqs := map[uint32][]uint64{}
		for _, c := range calls {
			seqs[c.TID] = append(seqs[c.TID], c.TSeq)
		}
		if len(seqs) < 3 {
			t.Errorf("calls of %d threads, want the main one, its thread and its child", len(seqs))
		}
		for tid, s := range seqs {
			slices.Sort(s)
			for i, n := range s {
				if n != uint64(i+1) {
					t.Errorf("thread %d: call sequence %v is not 1..%d", tid, s, len(s))
					break
				}
			}
		}
	})

	t.Run("times", func(t *testing.T) {
		for _, c := range calls {
			if c.Enter == 0 || (!c.NoReturn && c.Exit < c.Enter) {
				t.Errorf("call %d/%d nr %d: enter %v exit %v", c.TID, c.TSeq, c.Nr, c.Enter, c.Exit)
				break
			}
		}
	})
}

// TestRecordKinds: buffers sized every other way hold what the victim
// saw in its memory after each call.
func TestRecordKinds(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF)
	bin := buildVictim(t)
	file := t.TempDir() + "/kinds.txt"
	content := []byte("some content for readv to split over two iovecs\n")
	if err := os.WriteFile(file, content, 0o644); err != nil {
		t.Fatal(err)
	}
	p := loadProbe(t, Options{Filter: Filter{Kind: FilterTree}, RingSize: 1 << 20})
	v := startVictim(t, bin, "kinds", file)
	if err := p.Track(v.pid); err != nil {
		t.Fatal(err)
	}
	v.release(t)
	recs := collect(t, p, v.pid)
	if code := v.wait(t); code != 0 {
		t.Fatalf("victim exited %d\n%s", code, v.stdout.String())
	}
	saw := map[string][]byte{}
	var readvRet int64
	for _, line := range strings.Split(strings.TrimSpace(v.stdout.String()), "\n") {
		name, val, _ := strings.Cut(line, " ")
		switch name {
		case "readv_ret":
			readvRet, _ = strconv.ParseInt(val, 10, 64)
			continue
		case "partial_write_ret":
			continue
		}
		b, err := hex.DecodeString(val)
		if err != nil {
			t.Fatalf("victim printed %q: %v", line, err)
		}
		saw[name] = b
	}
	calls := assemble(t, recs)
	arg := func(i int, v uint64) func(*call) bool { return func(c *call) bool { return c.Args[i] == v } }
	for _, tc := range []struct {
		name  string
		nr    uint32
		match func(*call) bool
		arg   uint8
		part  trace.Part
		dir   uint8
		want  []byte
	}{
		{"prctl_set_name", unix.SYS_PRCTL, arg(0, unix.PR_SET_NAME), 1, trace.PartWhole, DirIn, saw["prctl_set_name"]},
		{"prctl_get_name", unix.SYS_PRCTL, arg(0, unix.PR_GET_NAME), 1, trace.PartWhole, DirOut, saw["prctl_get_name"]},
		{"fcntl_getlk", unix.SYS_FCNTL, arg(1, unix.F_GETLK), 2, trace.PartWhole, DirOut, saw["fcntl_getlk"]},
		{"select_readfds", unix.SYS_SELECT, nil, 1, trace.PartWhole, DirOut, saw["select_readfds"]},
		{"select_timeout", unix.SYS_SELECT, nil, 4, trace.PartWhole, DirOut, saw["select_timeout"]},
		{"fstat", unix.SYS_FSTAT, nil, 1, trace.PartWhole, DirOut, saw["fstat"]},
		{"readv", unix.SYS_READV, nil, 1, trace.PartIovData, DirOut, content[:readvRet]},
		{"getsockopt_optval", unix.SYS_GETSOCKOPT, nil, 3, trace.PartWhole, DirOut, saw["getsockopt_optval"]},
		{"getsockopt_optlen", unix.SYS_GETSOCKOPT, nil, 4, trace.PartWhole, DirOut, saw["getsockopt_optlen"]},
		{"ioctl_fionread", unix.SYS_IOCTL, arg(1, unix.TIOCINQ), 2, trace.PartWhole, DirOut, saw["ioctl_fionread"]},
		{"recvfrom", unix.SYS_RECVFROM, nil, 1, trace.PartWhole, DirOut, saw["recvfrom"]},
		{"sendto", unix.SYS_SENDTO, nil, 1, trace.PartWhole, DirIn, []byte("recvfrom-data")},
	} {
		cs := find(calls, tc.nr, func(c *call) bool { return c.TID == v.pid && (tc.match == nil || tc.match(c)) })
		if len(cs) != 1 {
			t.Errorf("%s: %d calls, want 1", tc.name, len(cs))
			continue
		}
		if len(tc.want) == 0 {
			t.Errorf("%s: the victim printed nothing", tc.name)
		}
		b, d, fault := cs[0].buf(tc.arg, tc.part)
		if b == nil || fault || b.Dir != tc.dir || b.Len != uint64(len(tc.want)) || !bytes.Equal(d, tc.want) {
			t.Errorf("%s: buffer %+v data %x, want %x", tc.name, b, d, tc.want)
		}
	}

	// A path of 5000 bytes: cut at 4096, and marked truncated.
	opens := find(calls, unix.SYS_OPENAT, func(c *call) bool { return c.TID == v.pid && c.Ret == -int64(unix.ENAMETOOLONG) })
	if len(opens) != 1 {
		t.Errorf("long path: %d openat calls failing with ENAMETOOLONG, want 1", len(opens))
	} else if b, d, _ := opens[0].buf(1, trace.PartWhole); b == nil || !b.Truncated || b.Len != 4096 || len(d) != 4096 || d[0] != '/' || d[4095] != 'l' {
		t.Errorf("long path: buffer %+v with %d bytes, want 4096 and truncated", b, len(d))
	}

	// Buffers of several chunks.
	large := make([]byte, 40000)
	for i := range large {
		large[i] = byte(i % 251)
	}
	iov := slices.Concat(large[:10000], large[7:10007], large[13:10013])
	for _, tc := range []struct {
		name string
		nr   uint32
		part trace.Part
		want []byte
	}{
		{"write of 40000 bytes", unix.SYS_WRITE, trace.PartWhole, large},
		{"writev of 30000 bytes", unix.SYS_WRITEV, trace.PartIovData, iov},
	} {
		cs := find(calls, tc.nr, func(c *call) bool { return c.TID == v.pid && c.Ret == int64(len(tc.want)) })
		if len(cs) != 1 {
			t.Errorf("%s: %d calls, want 1", tc.name, len(cs))
			continue
		}
		b, d, fault := cs[0].buf(1, tc.part)
		if b == nil || fault || b.Len != uint64(len(tc.want)) || b.Truncated || !bytes.Equal(d, tc.want) {
			t.Errorf("%s: buffer %+v with %d bytes, want them all", tc.name, b, len(d))
		}
	}

	// The write from a buffer whose last 10 bytes are unmapped: its first
	// 10 bytes, and a fault.
	cs := find(calls, unix.SYS_WRITE, func(c *call) bool { return c.TID == v.pid && c.Args[2] == 20 })
	if len(cs) != 1 {
		t.Fatalf("partial write: %d calls, want 1", len(cs))
	}
	b, d, fault := cs[0].buf(1, trace.PartWhole)
	if b == nil || !fault || b.Len != 20 || string(d) != strings.Repeat("p", 10) {
		t.Errorf("partial write: buffer %+v data %q fault %v, want Len 20, 10 bytes of p and a fault", b, d, fault)
	}
}

// TestExecFromThread: a thread that is not the leader execs. It takes the
// leader's tid; its execve is reported under its old tid, and its
// sequence goes on under the new one.
func TestExecFromThread(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF)
	bin := buildVictim(t)
	p := loadProbe(t, Options{Filter: Filter{Kind: FilterTree}, RingSize: 1 << 20})
	v := startVictim(t, bin, "threadexec")
	if err := p.Track(v.pid); err != nil {
		t.Fatal(err)
	}
	v.release(t)
	recs := collect(t, p, v.pid)
	if code := v.wait(t); code != 4 {
		t.Fatalf("victim exited %d, want 4 (from the exec'd image)", code)
	}
	var ex *Exec
	for _, r := range recs {
		if r.Exec != nil {
			ex = r.Exec
		}
	}
	if ex == nil || ex.TID != v.pid || ex.TGID != v.pid || ex.OldTID == v.pid || ex.Filename != bin {
		t.Fatalf("Exec %+v: want the thread's old tid and the leader's", ex)
	}
	calls := assemble(t, recs)
	execs := find(calls, unix.SYS_EXECVE, nil)
	if len(execs) != 1 || execs[0].TID != ex.OldTID || execs[0].TGID != v.pid || execs[0].Ret != 0 {
		t.Fatalf("want one successful execve by thread %d, got %d", ex.OldTID, len(execs))
	}
	if _, d, _ := execs[0].buf(0, trace.PartWhole); string(d) != bin {
		t.Errorf("execve path %q, want %q", d, bin)
	}
	if _, d, _ := execs[0].buf(1, trace.PartStrings); string(d) != bin+"\x00child\x00" {
		t.Errorf("execve argv %q", d)
	}
	// The new image's calls: tid = the leader's, sequence after the execve.
	var after []uint64
	for _, c := range calls {
		if c.TID == v.pid && c.Enter > execs[0].Exit {
			after = append(after, c.TSeq)
		}
	}
	slices.Sort(after)
	if len(after) == 0 || after[0] != execs[0].TSeq+1 {
		t.Errorf("after the execve (TSeq %d) the image's calls have TSeq %v", execs[0].TSeq, after)
	}
}

// TestCompatCalls: system calls made through the i386 ABI (int 0x80 in a
// 64-bit program) are never sent as the x86-64 calls of their numbers
// (i386 getpid, 20, is x86-64 writev): the probe sends the first of the
// thread as one Compat record with the i386 number, and the x86-64 call
// that follows is recorded as usual.
func TestCompatCalls(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF)
	bin := buildVictim(t)
	p := loadProbe(t, Options{Filter: Filter{Kind: FilterTree}, RingSize: 1 << 22})
	v := startVictim(t, bin, "int80")
	if err := p.Track(v.pid); err != nil {
		t.Fatal(err)
	}
	v.release(t)
	recs := collect(t, p, v.pid)
	if code := v.wait(t); code != 0 {
		t.Fatalf("victim exited %d, want 0 (its i386 getpid answered its pid)", code)
	}
	var compat, writev, getpid int
	for _, r := range recs {
		c := r.Call
		if c == nil || c.TID != v.pid {
			continue
		}
		switch {
		case c.Compat:
			compat++
			if c.Nr != 20 || !c.NoReturn || len(c.Bufs) != 0 || c.TSeq != 0 {
				t.Errorf("compat record %+v, want i386 getpid (20), NoReturn, no buffers, TSeq 0", *c)
			}
		case c.Nr == unix.SYS_WRITEV:
			writev++
		case c.Nr == unix.SYS_GETPID:
			getpid++
		}
	}
	if compat != 1 || writev != 0 || getpid != 1 {
		t.Errorf("%d compat records, %d writev, %d getpid; want 1, 0 and 1", compat, writev, getpid)
	}
}
