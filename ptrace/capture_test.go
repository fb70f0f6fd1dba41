package ptrace

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"golang.org/x/sys/unix"
)

// fakeMemory is an address space of a few regions, for testing how
// capture sizes and walks buffers without a live tracee.
type fakeMemory map[uint64][]byte

func (f fakeMemory) find(addr uint64) ([]byte, bool) {
	for base, b := range f {
		if addr >= base && addr < base+uint64(len(b)) {
			return b[addr-base:], true
		}
	}
	return nil, false
}

func (f fakeMemory) read(addr uint64, n int) ([]byte, error) {
	b, ok := f.find(addr)
	if !ok {
		return nil, unix.EFAULT
	}
	if len(b) < n {
		return append([]byte{}, b...), unix.EFAULT
	}
	return append([]byte{}, b[:n]...), nil
}

func (f fakeMemory) readString(addr uint64, limit int) ([]byte, error) {
	b, ok := f.find(addr)
	if !ok {
		return nil, unix.EFAULT
	}
	if i := bytes.IndexByte(b, 0); i >= 0 && i <= limit {
		return append([]byte{}, b[:i]...), nil
	}
	return append([]byte{}, b[:min(limit, len(b))]...), errNoTerminator
}

func (f fakeMemory) readWord(addr uint64) (uint64, error) {
	b, err := f.read(addr, 8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

func (f fakeMemory) readU32(addr uint64) (uint32, error) {
	b, err := f.read(addr, 4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (f fakeMemory) readBatch(addrs []uint64, lens []int, buf []byte) error {
	off := 0
	for i := range addrs {
		b, err := f.read(addrs[i], lens[i])
		if err != nil {
			return err
		}
		off += copy(buf[off:], b)
	}
	return nil
}

func le64(vs ...uint64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

func row(t *testing.T, name string) *systable.Syscall {
	t.Helper()
	tab, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	r, ok := tab.ByName(name)
	if !ok {
		t.Fatalf("no row %s", name)
	}
	return r
}

func TestCapture(t *testing.T) {
	tab, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		call string
		args [6]uint64
		ret  int64
		mem  fakeMemory
		max  uint64
		want []trace.Mem // Arg, Part, Dir, Len, Data, Flag compared
	}{
		{
			name: "read fills ret bytes", call: "read",
			args: [6]uint64{3, 0x1000, 128}, ret: 5,
			mem:  fakeMemory{0x1000: []byte("hello, and more")},
			want: []trace.Mem{{Arg: 1, Dir: trace.Out, Len: 5, Data: []byte("hello")}},
		},
		{
			name: "failed open keeps its path", call: "openat",
			args: [6]uint64{uint64(0xffffffffffffff9c), 0x2000, 0}, ret: -int64(unix.ENOENT),
			mem:  fakeMemory{0x2000: []byte("/nope\x00")},
			want: []trace.Mem{{Arg: 1, Dir: trace.In, Len: 5, Data: []byte("/nope")}},
		},
		{
			name: "failed read captures nothing", call: "read",
			args: [6]uint64{3, 0x1000, 128}, ret: -int64(unix.EBADF),
			mem: fakeMemory{0x1000: []byte("stale")},
		},
		{
			name: "write takes the count argument", call: "write",
			args: [6]uint64{1, 0x1000, 3}, ret: 3,
			mem:  fakeMemory{0x1000: []byte("abcdef")},
			want: []trace.Mem{{Arg: 1, Dir: trace.In, Len: 3, Data: []byte("abc")}},
		},
		{
			name: "openat path", call: "openat",
			args: [6]uint64{uint64(0xffffffffffffff9c), 0x2000, 0}, ret: 3,
			mem:  fakeMemory{0x2000: []byte("/etc/hosts\x00junk")},
			want: []trace.Mem{{Arg: 1, Dir: trace.In, Len: 10, Data: []byte("/etc/hosts")}},
		},
		{
			name: "newfstatat: path and struct in one batched read", call: "newfstatat",
			args: [6]uint64{uint64(0xffffffffffffff9c), 0x2000, 0x3000, 0}, ret: 0,
			mem: fakeMemory{
				0x2000: append([]byte("/etc/hosts\x00"), make([]byte, 300)...),
				0x3000: bytes.Repeat([]byte{9}, 144),
			},
			want: []trace.Mem{
				{Arg: 1, Dir: trace.In, Len: 10, Data: []byte("/etc/hosts")},
				{Arg: 2, Dir: trace.Out, Len: 144, Data: bytes.Repeat([]byte{9}, 144)},
			},
		},
		{
			name: "max capture truncates", call: "read", max: 4,
			args: [6]uint64{3, 0x1000, 128}, ret: 10,
			mem:  fakeMemory{0x1000: []byte("0123456789")},
			want: []trace.Mem{{Arg: 1, Dir: trace.Out, Len: 10, Data: []byte("0123"), Flag: trace.Truncated}},
		},
		{
			name: "getsockname: length from the value-result pointer", call: "getsockname",
			args: [6]uint64{3, 0x3000, 0x4000}, ret: 0,
			mem: fakeMemory{0x3000: bytes.Repeat([]byte{7}, 16), 0x4000: le32(16)},
			want: []trace.Mem{
				{Arg: 1, Dir: trace.Out, Len: 16, Data: bytes.Repeat([]byte{7}, 16)},
				{Arg: 2, Dir: trace.Out, Len: 4, Data: le32(16)},
			},
		},
		{
			name: "readv concatenates iovecs up to ret", call: "readv",
			args: [6]uint64{3, 0x5000, 2}, ret: 6,
			mem: fakeMemory{
				0x5000: le64(0x6000, 4, 0x7000, 10),
				0x6000: []byte("abcd"), 0x7000: []byte("efghijklmn"),
			},
			want: []trace.Mem{{Arg: 1, Part: trace.PartIovData, Dir: trace.Out, Len: 6, Data: []byte("abcdef")}},
		},
		{
			name: "execve argv as NUL-separated strings", call: "execve",
			args: [6]uint64{0x2000, 0x8000, 0},
			mem: fakeMemory{
				0x2000: []byte("/bin/cat\x00"),
				0x8000: le64(0x9000, 0x9100, 0),
				0x9000: []byte("cat\x00"), 0x9100: []byte("/etc/hosts\x00"),
			},
			want: []trace.Mem{
				{Arg: 0, Dir: trace.In, Len: 8, Data: []byte("/bin/cat")},
				{Arg: 1, Part: trace.PartStrings, Dir: trace.In, Len: 15, Data: []byte("cat\x00/etc/hosts\x00")},
			},
		},
		{
			name: "unreadable buffer is a fault", call: "read",
			args: [6]uint64{3, 0xdead000, 16}, ret: 16,
			mem:  fakeMemory{},
			want: []trace.Mem{{Arg: 1, Dir: trace.Out, Len: 16, Flag: trace.Fault}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := row(t, tc.call)
			cp := capturer{table: tab, max: tc.max}
			c := &trace.Call{Args: tc.args, Ret: tc.ret}
			cp.capture(tc.mem, r, c, true)
			if len(c.Mem) != len(tc.want) {
				t.Fatalf("captured %d buffers %+v; want %d", len(c.Mem), c.Mem, len(tc.want))
			}
			for i, w := range tc.want {
				g := c.Mem[i]
				if g.Arg != w.Arg || g.Part != w.Part || g.Dir != w.Dir || g.Len != w.Len || !bytes.Equal(g.Data, w.Data) || g.Flag != w.Flag {
					t.Errorf("buffer %d = {arg %d part %d dir %d len %d data %q flag %d}; want {arg %d part %d dir %d len %d data %q flag %d}",
						i, g.Arg, g.Part, g.Dir, g.Len, g.Data, g.Flag, w.Arg, w.Part, w.Dir, w.Len, w.Data, w.Flag)
				}
			}
		})
	}
}
