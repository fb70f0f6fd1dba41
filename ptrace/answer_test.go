package ptrace

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// releaseAnswer is an Answerer that gives uname's release field a value
// of its own.
type releaseAnswer struct {
	table   *systable.Table
	release string
	asked   int
}

func (a *releaseAnswer) Answer(c *trace.Call) bool {
	a.asked++
	row := a.table.ByNr(int(c.Nr))
	f := systable.StructOf(row.Args[0].Struct)
	field := f.Field("release")
	for k := range c.Mem {
		m := &c.Mem[k]
		if m.Dir == trace.Out && len(m.Data) >= field.Off+field.Size {
			b := make([]byte, field.Size)
			copy(b, a.release)
			copy(m.Data[field.Off:], b)
			return true
		}
	}
	return false
}

// TestAnswering: in an Answering run the command runs live, stopping
// only at uname, whose release field it sees rewritten (its host name
// left as the kernel gave it), through forks and execs; the calls of a
// loop around it (opens, reads, execs of cat) never reach the tracer.
// The PTRACE_SYSCALL fallback gives the same.
func TestAnswering(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	table, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	for _, noSeccomp := range []bool{false, true} {
		out, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		obs := &collector{}
		ans := &releaseAnswer{table: table, release: "2.6.99-answered"}
		script := `i=0; while [ $i -lt 50 ]; do cat /etc/hostname >/dev/null; i=$((i+1)); done; uname -r; sh -c 'uname -n'`
		res, err := Run(Config{Config: launch.Config{
			Path: "/bin/sh", Argv: []string{"sh", "-c", script}, Env: []string{"PATH=/usr/bin:/bin"}, CPU: -1,
			Table: table, Observer: obs, Stdout: w,
		}, NoSeccomp: noSeccomp, Answering: &Answering{Stop: table.KernelNames(), Answer: ans}})
		w.Close()
		got, _ := io.ReadAll(out)
		out.Close()
		if err != nil {
			t.Fatalf("noSeccomp=%v: %v", noSeccomp, err)
		}
		if res.ExitCode != 0 {
			t.Fatalf("noSeccomp=%v: exit %d, output %q", noSeccomp, res.ExitCode, got)
		}
		if want := "2.6.99-answered\n" + host + "\n"; string(got) != want {
			t.Errorf("noSeccomp=%v: output %q, want %q", noSeccomp, got, want)
		}
		var names []string
		for _, c := range obs.calls() {
			names = append(names, table.ByNr(int(c.Nr)).Name)
		}
		if strings.Join(names, " ") != "uname uname" || ans.asked != 2 {
			t.Errorf("noSeccomp=%v: calls seen %v, answered %d: want the two unames only", noSeccomp, names, ans.asked)
		}
	}
}
