package record

import (
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// TestRealPrograms records the programs the syscall table must cover
// (the table's own coverage test checks the same list against strace):
// each runs to its normal end under the recorder, and every call it made
// is one the table describes, so nothing is left raw.
func TestRealPrograms(t *testing.T) {
	testutil.Require(t, testutil.Binary("gcc"), testutil.Binary("git"), testutil.Binary("curl"), testutil.File("/usr/bin/python3"))
	dir := t.TempDir()
	src := filepath.Join(dir, "hello.c")
	os.WriteFile(src, []byte("#include <stdio.h>\nint main(void){puts(\"hi\");return 0;}\n"), 0o644)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok\n")) })}
	go srv.Serve(ln)
	defer srv.Close()

	programs := []struct {
		name string
		argv []string
	}{
		{"coreutils", []string{"sh", "-c", "ls -la / >/dev/null && sort /etc/passwd | head -3 >/dev/null && cp /etc/hostname " + dir + "/h"}},
		{"bash", []string{"bash", "-c", "for i in 1 2; do (echo $i | cat) >/dev/null; done; read x < /etc/hostname"}},
		{"python3", []string{"/usr/bin/python3", "-c", "import json, ssl, sqlite3, email, http.client, threading, subprocess; subprocess.run(['true'])"}},
		{"gcc", []string{"gcc", "-O2", "-o", filepath.Join(dir, "hello"), src}},
		{"git", []string{"sh", "-c", "cd " + dir + " && git init -q r && cd r && echo x > f && git add f && git -c user.email=a@b -c user.name=n commit -qm m && git log --oneline >/dev/null"}},
		{"curl", []string{"curl", "-s", "-o", "/dev/null", "http://" + ln.Addr().String() + "/"}},
		{"go", []string{testutil.BuildGo(t, "gothreads")}},
	}
	for _, p := range programs {
		t.Run(p.name, func(t *testing.T) {
			if _, err := exec.LookPath(p.argv[0]); err != nil {
				t.Fatalf("%s: %v", p.argv[0], err)
			}
			sum, tr := recordIn(t, Options{}, p.argv...)
			if sum.ExitCode != 0 {
				t.Fatalf("%v exited with %d under the recorder", p.argv, sum.ExitCode)
			}
			tab := table(t)
			unknown := map[string]int{}
			for _, c := range calls(t, tr, "") {
				if row := tab.ByNr(int(c.Nr)); row.Unknown {
					unknown[row.Name]++
				}
			}
			if len(unknown) > 0 {
				t.Errorf("calls the table does not describe: %v", unknown)
			}
			checkLineage(t, tr)
		})
	}
}

// TestRealServer records lighttpd serving a real HTTP request on
// 127.0.0.1 and stopped by SIGTERM after two seconds: it answered while
// traced, and every call it made is one the table describes.
func TestRealServer(t *testing.T) {
	testutil.Require(t, testutil.Binary("lighttpd"), testutil.Binary("timeout"))
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("hello from lighttpd\n"), 0o644)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, port, _ := net.SplitHostPort(addr)
	conf := filepath.Join(dir, "lighttpd.conf")
	os.WriteFile(conf, []byte(`server.document-root = "`+dir+`"
server.bind = "127.0.0.1"
server.port = `+port+`
server.errorlog = "`+dir+`/error.log"
index-file.names = ( "index.html" )
`), 0o644)
	got := make(chan string, 1)
	go func() {
		for i := 0; i < 100; i++ {
			resp, err := http.Get("http://" + addr + "/")
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				got <- string(b)
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		got <- "no answer"
	}()
	sum, tr := recordIn(t, Options{}, "timeout", "-s", "TERM", "2", "lighttpd", "-D", "-f", conf)
	if body := <-got; body != "hello from lighttpd\n" {
		t.Errorf("lighttpd under the recorder answered %q", body)
	}
	if sum.ExitCode != 124 {
		t.Errorf("timeout exited %d, want 124 (it stopped lighttpd)", sum.ExitCode)
	}
	var accepted bool
	for _, c := range calls(t, tr, "") {
		row := table(t).ByNr(int(c.Nr))
		if row.Unknown {
			t.Errorf("call %d: %s is not described by the table", c.Seq, row.Name)
		}
		if (row.Name == "accept4" || row.Name == "accept") && c.Ret >= 0 {
			accepted = true
		}
	}
	if !accepted {
		t.Error("no accepted connection in lighttpd's trace")
	}
	checkLineage(t, tr)
}

// checkLineage: every call belongs to a process and thread the trace
// introduced with a spawn event before it.
func checkLineage(t *testing.T, tr *tracefile.Trace) {
	t.Helper()
	procs, threads := map[uint32]bool{}, map[uint32]bool{}
	for _, ev := range tr.Events {
		if p := ev.Proc; p != nil && (p.Kind == trace.Spawn || p.Kind == trace.SpawnThread) {
			procs[p.Proc], threads[p.Thread] = true, true
		}
		if c := ev.Call; c != nil && (!procs[c.Proc] || !threads[c.Thread]) {
			t.Fatalf("call %d by proc %d thread %d, which no spawn event introduced", c.Seq, c.Proc, c.Thread)
		}
	}
}
