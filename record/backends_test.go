package record

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// TestBackendsAgree records the test programs with the ptrace and the
// eBPF backends: each thread makes the same calls in the same order with
// the same results, and every buffer under the capture limit holds the
// same bytes, apart from what differs between any two runs (random
// bytes, times, pids).
func TestBackendsAgree(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Binary("gcc"), testutil.File("/usr/bin/python3"))
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "app.conf"), []byte("mode=ok\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "lines"), []byte("one\ntwo\nthree\n"), 0o644)
	programs := []struct {
		name string
		argv []string
	}{
		{"readback", []string{testutil.BuildC(t, "readback.c", false), dir}},
		{"forkexecpipe", []string{testutil.BuildC(t, "forkexecpipe.c", false), filepath.Join(dir, "lines")}},
		{"threads", []string{testutil.BuildC(t, "threads.c", false)}},
		{"python3", []string{"/usr/bin/python3", "-c", "import json, sqlite3, email; print(json.dumps(open('" + filepath.Join(dir, "lines") + "').read()))"}},
		{"shell", []string{"sh", "-c", "cat " + filepath.Join(dir, "lines") + " | sort -r >" + filepath.Join(dir, "sorted") + "; ls -l " + dir + " >/dev/null"}},
	}
	tab := table(t)
	for _, p := range programs {
		t.Run(p.name, func(t *testing.T) {
			// Output to a file, not /dev/null: the eBPF probe reads only
			// resident memory, and /dev/null never touches what is written
			// to it (a string literal's page may never be faulted in).
			// The same file, empty, for both runs: its path and offsets are
			// in the trace.
			out := filepath.Join(t.TempDir(), "out")
			_, pt := recordIn(t, Options{Stdout: outFile(t, out)}, p.argv...)
			sum, eb := recordIn(t, Options{Backend: trace.BackendEBPF, Stdout: outFile(t, out)}, p.argv...)
			if sum.Backend != trace.BackendEBPF || eb.Header.Backend != trace.BackendEBPF {
				t.Fatalf("backend %q, header %q: want ebpf", sum.Backend, eb.Header.Backend)
			}
			if l := eb.End.Lost; l == nil || l.Any() {
				t.Fatalf("the eBPF recording lost data at default sizes: %+v", l)
			}
			compareTraces(t, tab, pt, eb)
		})
	}
}

// compareTraces checks that two traces of one program hold the same calls
// per logical thread, with the same results and buffer bytes.
func compareTraces(t *testing.T, tab *systable.Table, a, b *tracefile.Trace) {
	t.Helper()
	ta, tb := byThread(a), byThread(b)
	if len(ta) != len(tb) {
		t.Fatalf("threads: ptrace %d, ebpf %d", len(ta), len(tb))
	}
	for th, ca := range ta {
		cb := tb[th]
		if na, nb := callNames(tab, ca), callNames(tab, cb); na != nb {
			t.Errorf("thread %d calls differ:\nptrace: %s\nebpf:   %s", th, na, nb)
			continue
		}
		for i := range ca {
			x, y := ca[i], cb[i]
			row := tab.ByNr(int(x.Nr))
			if row.Effects&systable.ReadsEnvironment != 0 || row.Effects&(systable.CreatesProcess|systable.WaitsChild) != 0 {
				continue // random bytes, times, pids: differ between any two runs
			}
			// Pids and addresses differ between runs; fd numbers too
			// when threads race to open.
			if stable := row.Ret == systable.Int; stable && (x.Ret != y.Ret || x.NoReturn != y.NoReturn) {
				t.Errorf("thread %d call %d %s: ret ptrace %d, ebpf %d", th, i+1, row.Name, x.Ret, y.Ret)
			}
			// Anonymous objects (pipe:[123]) are named from /proc, which
			// the eBPF recorder reads later, when the fd may be gone.
			if strings.HasPrefix(x.Path, "/") && x.Path != y.Path {
				t.Errorf("thread %d call %d %s: path ptrace %q, ebpf %q", th, i+1, row.Name, x.Path, y.Path)
			}
			for _, mx := range x.Mem {
				if !isContentOrName(row, mx) {
					continue // a struct: inode numbers and times differ between runs
				}
				my := y.MemOf(mx.Arg, mx.Part)
				if my == nil {
					t.Errorf("thread %d call %d %s: ebpf lacks arg %d part %d (%d bytes)", th, i+1, row.Name, mx.Arg, mx.Part, mx.Len)
					continue
				}
				if mx.Flag&trace.Truncated != 0 || my.Flag&trace.Truncated != 0 {
					if my.Len != mx.Len {
						t.Errorf("thread %d call %d %s arg %d: length ptrace %d, ebpf %d", th, i+1, row.Name, mx.Arg, mx.Len, my.Len)
					}
					continue
				}
				if !bytes.Equal(mx.Data, my.Data) || mx.Len != my.Len || mx.Dir != my.Dir {
					t.Errorf("thread %d call %d %s arg %d part %d: ptrace %d bytes %q, ebpf %d bytes %q", th, i+1, row.Name,
						mx.Arg, mx.Part, mx.Len, clip(mx.Data), my.Len, clip(my.Data))
				}
			}
		}
	}
}

func byThread(tr *tracefile.Trace) map[uint32][]*trace.Call {
	out := map[uint32][]*trace.Call{}
	for _, ev := range tr.Events {
		if c := ev.Call; c != nil {
			out[c.Thread] = append(out[c.Thread], c)
		}
	}
	return out
}

func callNames(tab *systable.Table, cs []*trace.Call) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s ", tab.ByNr(int(c.Nr)).Name)
	}
	return b.String()
}

func clip(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}

// TestEBPFTruncates: a buffer over --max-capture is stored up to it,
// marked truncated with its whole length, and counted in the end frame.
func TestEBPFTruncates(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF)
	dir := t.TempDir()
	big := bytes.Repeat([]byte("0123456789abcdef"), 1024) // 16 KiB
	file := filepath.Join(dir, "big")
	os.WriteFile(file, big, 0o644)
	_, tr := recordIn(t, Options{Backend: trace.BackendEBPF, MaxCapture: 1000}, "cat", file)
	var found bool
	for _, c := range calls(t, tr, "read") {
		if c.Path != file || c.Ret <= 0 {
			continue
		}
		found = true
		m := c.MemOf(1, trace.PartWhole)
		if m == nil || m.Flag&trace.Truncated == 0 || m.Len != uint64(c.Ret) || len(m.Data) != 1000 || !bytes.Equal(m.Data, big[:1000]) {
			t.Fatalf("read of %s (ret %d): want 1000 bytes of %d marked truncated, got %+v", file, c.Ret, c.Ret, m)
		}
	}
	if !found {
		t.Fatalf("no read of %s in the trace", file)
	}
	if l := tr.End.Lost; l == nil || l.Truncated == 0 || l.Any() {
		t.Errorf("end frame losses %+v: want truncated buffers counted and nothing lost", l)
	}
}

// isContentOrName reports whether m is data a program moved or named (a
// path, argv, a read or written buffer) rather than a kernel struct.
func isContentOrName(row *systable.Syscall, m trace.Mem) bool {
	if int(m.Arg) >= len(row.Args) {
		return false
	}
	a := row.Args[m.Arg]
	switch a.Kind {
	case systable.Path, systable.String, systable.StrArray, systable.InIovec, systable.OutIovec:
		return true
	case systable.InBuf, systable.OutBuf:
		return a.Struct == "" && a.Len.Size <= 1 && (a.Len.From == systable.LenArg || a.Len.From == systable.LenRet || a.Len.From == systable.LenMinArgRet)
	}
	return false
}

// outFile creates (or empties) the file at path for a command's output.
func outFile(t *testing.T, path string) *os.File {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
