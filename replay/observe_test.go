package replay

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/verdict"
)

// TestObserveOnlyEndsTheRun: sh reads a configuration file with cat,
// then sleeps for a minute. An observation run made for cat's read of the
// file (Options.ObserveOnly) ends once that read ran: Observed, the read's
// live result in Live (this environment's content), and the run killed,
// not waited for (the sleep never got to exit 0, so the command did not
// pass), and no error for the kill.
func TestObserveOnlyEndsTheRun(t *testing.T) {
	testutil.Require(t, testutil.Binary("sh"), testutil.Binary("cat"), testutil.Binary("sleep"))
	dir := t.TempDir()
	conf := filepath.Join(dir, "app.conf")
	if err := os.WriteFile(conf, []byte("mode=good\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	argv := []string{"sh", "-c", "cat app.conf; sleep ${NAP:-0}"}
	rec := recordRun(t, dir, argv...)
	if err := os.WriteFile(conf, []byte("mode=here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var read uint64
	for seq := range callsOn(rec, conf) {
		if c, ok := rec.Graph.Call(seq); ok && rec.Table.ByNr(int(c.Nr)).ReadsData && c.Ret > 0 && (read == 0 || seq < read) {
			read = seq
		}
	}
	if read == 0 {
		t.Fatal("the recording has no read of app.conf")
	}
	res, err := rec.Run(context.Background(), Options{
		Argv: argv, Dir: dir, Env: append(os.Environ(), "NAP=60"), Plan: rec.Graph.Closure(func(uint64) bool { return false }), CPU: -1,
		Stdin: openDevNull(t), Stdout: openDevNull(t), Stderr: openDevNull(t), ObserveOnly: []uint64{read},
	})
	if err != nil {
		t.Fatalf("observation run: %v", err)
	}
	if !res.Observed {
		t.Fatalf("Observed not set (verdict %s, %s): the run went to its end", res.Verdict, res.Detail)
	}
	live, _ := res.Live.Get(read)
	if live == nil || live.Errno() != 0 {
		t.Fatalf("live result of the read: %+v; want the read of this environment's file", live)
	}
	got := ""
	for _, m := range live.Mem {
		if m.Dir == trace.Out {
			got += string(m.Data)
		}
	}
	if got != "mode=here\n" {
		t.Errorf("the read gave %q live, want this environment's %q", got, "mode=here\n")
	}
	if res.Verdict == verdict.Pass {
		t.Errorf("verdict pass: the sleep was not cut short")
	}
}
