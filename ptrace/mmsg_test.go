package ptrace

import (
	"encoding/binary"
	"io"
	"os"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// runMmsg runs testdata/victims/mmsg under the engine with rp (nil:
// record) and returns its output and the calls the observer saw.
func runMmsg(t *testing.T, rp Replayer) (string, []*trace.Call) {
	t.Helper()
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	bin := testutil.BuildC(t, "mmsg.c", false)
	table, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	out, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	obs := &collector{}
	res, err := Run(Config{Config: launch.Config{
		Argv: []string{bin}, Env: []string{"PATH=/usr/bin:/bin"}, CPU: -1,
		Table: table, Observer: obs, Stdout: w,
	}, Replayer: rp})
	w.Close()
	got, _ := io.ReadAll(out)
	out.Close()
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("mmsg exited %d, output %q", res.ExitCode, got)
	}
	return string(got), obs.calls()
}

// mem is the Mem of call c for an mmsghdr entry's part, or nil.
func entryData(c *trace.Call, dir trace.Dir, p trace.Part, entry uint32) []byte {
	if m := c.MemOfEntry(1, p, dir, entry); m != nil {
		return m.Data
	}
	return nil
}

// TestCaptureMmsg records a real program's sendmmsg of two datagrams and
// recvmmsg of them: each struct mmsghdr entry's data is captured on its
// own (Entry 0 and 1), with the msg_len the kernel wrote.
func TestCaptureMmsg(t *testing.T) {
	got, calls := runMmsg(t, nil)
	if want := "sent 2: 5 7\nreceived 2: 5 first 7 second!\n"; got != want {
		t.Fatalf("output %q, want %q", got, want)
	}
	var sent, recvd *trace.Call
	for _, c := range calls {
		switch c.Nr {
		case unix.SYS_SENDMMSG:
			sent = c
		case unix.SYS_RECVMMSG:
			recvd = c
		}
	}
	if sent == nil || recvd == nil {
		t.Fatalf("sendmmsg %v, recvmmsg %v: want both recorded", sent, recvd)
	}
	for _, tc := range []struct {
		name  string
		c     *trace.Call
		dir   trace.Dir
		entry uint32
		data  string
	}{
		{"sendmmsg sends entry 0", sent, trace.In, 0, "first"},
		{"sendmmsg sends entry 1", sent, trace.In, 1, "second!"},
		{"recvmmsg fills entry 0", recvd, trace.Out, 0, "first"},
		{"recvmmsg fills entry 1", recvd, trace.Out, 1, "second!"},
	} {
		if d := entryData(tc.c, tc.dir, trace.PartIovData, tc.entry); string(d) != tc.data {
			t.Errorf("%s: data %q, want %q", tc.name, d, tc.data)
		}
		l := entryData(tc.c, trace.Out, trace.PartMsgLen, tc.entry)
		if len(l) != 4 || binary.LittleEndian.Uint32(l) != uint32(len(tc.data)) {
			t.Errorf("%s: msg_len %x, want %d", tc.name, l, len(tc.data))
		}
	}
	if sent.Ret != 2 || recvd.Ret != 2 {
		t.Errorf("sendmmsg = %d, recvmmsg = %d: want 2 messages each", sent.Ret, recvd.Ret)
	}
}

// TestReplayMmsg replays both calls with recorded results the live run
// cannot produce: sendmmsg's msg_len values and recvmmsg's messages
// (three recorded, the live array has room for two: the result is cut
// to two) reach the program, which never sent anything.
func TestReplayMmsg(t *testing.T) {
	msgLen := func(entry uint32, n uint32) trace.Mem {
		return trace.Mem{Arg: 1, Part: trace.PartMsgLen, Dir: trace.Out, Len: 4, Data: le32(n), Entry: entry}
	}
	data := func(dir trace.Dir, entry uint32, s string) trace.Mem {
		return trace.Mem{Arg: 1, Part: trace.PartIovData, Dir: dir, Len: uint64(len(s)), Data: []byte(s), Entry: entry}
	}
	rp := &mmsgReplayer{recs: map[uint32]*trace.Call{
		unix.SYS_SENDMMSG: {Nr: unix.SYS_SENDMMSG, Ret: 2, Mem: []trace.Mem{
			data(trace.In, 0, "first"), data(trace.In, 1, "second!"), msgLen(0, 3), msgLen(1, 4)}},
		unix.SYS_RECVMMSG: {Nr: unix.SYS_RECVMMSG, Ret: 3, Mem: []trace.Mem{
			data(trace.Out, 0, "REC"), msgLen(0, 3), data(trace.Out, 1, "ORDED"), msgLen(1, 5), data(trace.Out, 2, "extra"), msgLen(2, 5)}},
	}}
	got, _ := runMmsg(t, rp)
	if want := "sent 2: 3 4\nreceived 2: 3 REC 5 ORDED\n"; got != want {
		t.Errorf("output %q, want %q (the recorded msg_len values and messages, cut to the live vlen)", got, want)
	}
	if rp.skipped != 2 {
		t.Errorf("%d calls replayed, want 2", rp.skipped)
	}
}

// mmsgReplayer replays the calls it has a recorded call for.
type mmsgReplayer struct {
	mu      sync.Mutex
	recs    map[uint32]*trace.Call
	skipped int
}

func (r *mmsgReplayer) Enter(c *trace.Call) Decision {
	rec := r.recs[c.Nr]
	if rec == nil {
		return Decision{Verb: Execute}
	}
	r.mu.Lock()
	r.skipped++
	r.mu.Unlock()
	return Decision{Verb: Skip, Rec: rec}
}

func (r *mmsgReplayer) Exit(*trace.Call, Decision) {}
