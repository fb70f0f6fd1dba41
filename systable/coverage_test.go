package systable

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
)

// The programs envbisect must handle are run under strace and every
// system call they make must have a detailed row. Each run is short and
// bounded; servers listen on 127.0.0.1 only, live in a temporary
// directory, and are ended by timeout(1) inside the trace.

// straceLine matches the start of a call in strace -f output: "1234
// openat(". Resumed halves ("<... openat resumed>") and signal or exit
// lines ("--- SIGCHLD", "+++ exited") do not match.
var straceLine = regexp.MustCompile(`^\d+\s+([a-z_][a-z0-9_]*)\(`)

// serverLife is how long a traced server runs before timeout(1) stops it:
// long enough for a traced server to come up on a loaded CI machine (mpd
// did not listen within 4 s under a load of 12 on 2 CPUs), with
// dialWhenUp's deadline inside it.
const serverLife = "12"

// traceRun is one program to trace: the command, and optionally a client
// that talks to it while it runs.
type traceRun struct {
	args    []string
	dir     string
	env     []string
	timeout time.Duration
	// client runs while the traced command does (servers); nil for
	// commands that finish by themselves.
	client func(t *testing.T)
	// exitOK lists exit codes besides 0 that count as success (124:
	// timeout(1) ended a server, as planned).
	exitOK []int
}

// syscallsOf runs r under strace and returns the names of the calls seen,
// with how often each was made.
func syscallsOf(t *testing.T, r traceRun) map[string]int {
	t.Helper()
	out := filepath.Join(t.TempDir(), "strace.out")
	if r.timeout == 0 {
		r.timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "strace", append([]string{"-f", "-qq", "-o", out, "--"}, r.args...)...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), r.env...)
	var stderr strings.Builder
	cmd.Stdout = io.Discard
	cmd.Stderr = &stderr
	// strace and everything it starts share a process group that is
	// killed if the run overstays its timeout.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatalf("start strace: %v", err)
	}
	if r.client != nil {
		r.client(t)
	}
	err := cmd.Wait()
	if err != nil {
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		ok := false
		for _, c := range r.exitOK {
			ok = ok || c == code
		}
		if !ok {
			t.Errorf("%s: %v\n%s", strings.Join(r.args, " "), err, stderr.String())
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatalf("strace output: %v", err)
	}
	defer f.Close()
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if m := straceLine.FindStringSubmatch(sc.Text()); m != nil {
			seen[m[1]]++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read strace output: %v", err)
	}
	return seen
}

// requireDetailed fails for every observed call without a detailed row.
func requireDetailed(t *testing.T, seen map[string]int) {
	t.Helper()
	if len(seen) == 0 {
		t.Fatal("strace saw no system calls")
	}
	tab := amd64Table(t)
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	var missing []string
	for _, n := range names {
		if r, ok := tab.ByName(n); !ok || r.Unknown {
			missing = append(missing, fmt.Sprintf("%s (%d calls)", n, seen[n]))
		}
	}
	if len(missing) > 0 {
		t.Errorf("calls without a detailed row: %s", strings.Join(missing, ", "))
	}
	t.Logf("%d distinct calls: %s", len(names), strings.Join(names, " "))
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// dialWhenUp connects to addr as soon as a server listens there, giving
// up after a few seconds.
func dialWhenUp(t *testing.T, addr string) net.Conn {
	t.Helper()
	deadline := time.Now().Add(9 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_ = c.SetDeadline(time.Now().Add(3 * time.Second))
			return c
		}
		if time.Now().After(deadline) {
			t.Errorf("nothing listens on %s: %v", addr, err)
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// converse sends each line and reads one reply line after the greeting.
func converse(t *testing.T, c net.Conn, lines ...string) {
	t.Helper()
	defer c.Close()
	rd := bufio.NewReader(c)
	if _, err := rd.ReadString('\n'); err != nil {
		t.Errorf("greeting: %v", err)
		return
	}
	for _, l := range lines {
		if _, err := io.WriteString(c, l); err != nil {
			t.Errorf("send %q: %v", l, err)
			return
		}
		if _, err := rd.ReadString('\n'); err != nil && l != "close\n" && l != "QUIT\r\n" {
			t.Errorf("reply to %q: %v", l, err)
			return
		}
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCoverageObservedCalls(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("strace"))

	t.Run("coreutils", func(t *testing.T) {
		testutil.Require(t, testutil.Binary("ls"), testutil.Binary("sort"))
		dir := t.TempDir()
		script := `set -e
ls -la / >/dev/null
echo hello | cat - /etc/hostname >/dev/null
cp /etc/passwd copy; sort -o sorted copy; sort <copy >/dev/null
mkdir -p d/e; touch d/e/f; ln -s f d/e/l; ln d/e/f d/e/h; mv d/e/h d/e/h2
chmod 600 d/e/f; chown 0:0 d/e/f; stat d/e/f >/dev/null; readlink d/e/l >/dev/null
du -s d >/dev/null; df . >/dev/null; find d >/dev/null; rm -rf d
date >/dev/null; id >/dev/null; uname -a >/dev/null; env >/dev/null
head -c 16 /dev/urandom | od >/dev/null; tail -n 1 /etc/passwd >/dev/null
wc copy >/dev/null; md5sum copy >/dev/null; tee t </etc/hostname >/dev/null
dd if=/dev/zero of=/dev/null bs=1k count=4 2>/dev/null; mktemp -p . >/dev/null
sleep 0.05; touch -d @0 t; truncate -s 10 t; sync; realpath . >/dev/null
nproc >/dev/null; timeout 2 true; mkfifo fifo; rm fifo; install -m 644 copy inst
split -l 5 copy sp; cut -d: -f1 copy >/dev/null; tr a b <copy >/dev/null`
		requireDetailed(t, syscallsOf(t, traceRun{args: []string{"sh", "-c", script}, dir: dir}))
	})

	t.Run("bash", func(t *testing.T) {
		testutil.Require(t, testutil.Binary("bash"))
		script := `x=$(echo hi | tr a-z A-Z); (cd /tmp && ls | wc -l) >/dev/null
echo "$x" | cat >/dev/null; for i in 1 2; do true; done; read -t 0.1 y </dev/null
ulimit -n >/dev/null; umask >/dev/null; trap 'true' USR1; kill -USR1 $$
sleep 0.1 & wait; [[ -d /tmp ]] && echo ok >/dev/null; exit 0`
		requireDetailed(t, syscallsOf(t, traceRun{args: []string{"bash", "-c", script}, dir: t.TempDir()}))
	})

	t.Run("dash", func(t *testing.T) {
		testutil.Require(t, testutil.Binary("dash"))
		script := `x=$(echo hi | tr a-z A-Z); (cd /tmp && ls | wc -l) >/dev/null
echo "$x" | cat >/dev/null; umask >/dev/null; trap 'true' USR1; kill -USR1 $$
echo a >f; cat <f >/dev/null; test -d /tmp; sleep 0.1 & wait`
		requireDetailed(t, syscallsOf(t, traceRun{args: []string{"dash", "-c", script}, dir: t.TempDir()}))
	})

	t.Run("python3", func(t *testing.T) {
		testutil.Require(t, testutil.File("/usr/bin/python3"))
		prog := `import json, ssl, sqlite3, email, http.client, threading, subprocess, socket, tempfile, os
c = sqlite3.connect(":memory:"); c.execute("create table t(x)")
th = threading.Thread(target=lambda: None); th.start(); th.join()
subprocess.run(["true"], check=True)
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); s.close()
ssl.create_default_context()
with tempfile.TemporaryDirectory() as d: open(os.path.join(d, "x"), "w").write("x")
json.dumps(os.uname())`
		requireDetailed(t, syscallsOf(t, traceRun{args: []string{"/usr/bin/python3", "-c", prog}, dir: t.TempDir()}))
	})

	t.Run("git", func(t *testing.T) {
		testutil.Require(t, testutil.Binary("git"))
		dir := t.TempDir()
		script := `set -e
git init -q .; echo x >a; git add a
git -c user.name=t -c user.email=t@example.com commit -qm m
git log --oneline >/dev/null; git status >/dev/null; git diff HEAD >/dev/null
git branch b; git checkout -q b; git gc -q`
		env := []string{"HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1"}
		requireDetailed(t, syscallsOf(t, traceRun{args: []string{"sh", "-c", script}, dir: dir, env: env}))
	})

	t.Run("gcc", func(t *testing.T) {
		testutil.Require(t, testutil.Binary("gcc"))
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "x.c"), "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }\n")
		requireDetailed(t, syscallsOf(t, traceRun{args: []string{"gcc", "-O2", "x.c", "-o", "x"}, dir: dir, timeout: time.Minute}))
		requireDetailed(t, syscallsOf(t, traceRun{args: []string{"gcc", "-static", "x.c", "-o", "xs"}, dir: dir, timeout: time.Minute}))
	})

	t.Run("curl", func(t *testing.T) {
		testutil.Require(t, testutil.Binary("curl"))
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "hi") }))
		defer srv.Close()
		requireDetailed(t, syscallsOf(t, traceRun{args: []string{"curl", "-sS", "-o", "/dev/null", srv.URL + "/"}, dir: t.TempDir()}))
	})

	t.Run("go", func(t *testing.T) {
		testutil.Require(t, testutil.Binary("go"), testutil.Binary("echo"))
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "go.mod"), "module victim\n\ngo 1.22\n")
		writeFile(t, filepath.Join(dir, "main.go"), goVictim)
		build := exec.Command("go", "build", "-o", "victim", ".")
		build.Dir = dir
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		requireDetailed(t, syscallsOf(t, traceRun{args: []string{"./victim"}, dir: dir}))
	})

	t.Run("mpd", func(t *testing.T) {
		testutil.Require(t, testutil.Binary("mpd"), testutil.Binary("timeout"))
		dir := t.TempDir()
		for _, d := range []string{"music", "playlists"} {
			if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		port := freePort(t)
		conf := filepath.Join(dir, "mpd.conf")
		writeFile(t, conf, fmt.Sprintf(`music_directory "%[1]s/music"
playlist_directory "%[1]s/playlists"
db_file "%[1]s/db"
log_file "%[1]s/log"
pid_file "%[1]s/pid"
state_file "%[1]s/state"
bind_to_address "127.0.0.1"
port "%[2]d"
zeroconf_enabled "no"
audio_output {
	type "null"
	name "null"
}
`, dir, port))
		requireDetailed(t, syscallsOf(t, traceRun{
			args: []string{"timeout", "-s", "TERM", serverLife, "mpd", "--no-daemon", conf},
			dir:  dir,
			client: func(t *testing.T) {
				if c := dialWhenUp(t, fmt.Sprintf("127.0.0.1:%d", port)); c != nil {
					converse(t, c, "status\n", "close\n")
				}
			},
			exitOK: []int{124},
		}))
	})

	t.Run("vsftpd", func(t *testing.T) {
		testutil.Require(t, testutil.Binary("vsftpd"), testutil.Binary("timeout"))
		ftp, err := user.Lookup("ftp")
		if err != nil {
			t.Fatalf("vsftpd is installed but the ftp user it runs anonymous sessions as is missing: %v", err)
		}
		testutil.Require(t, testutil.File(ftp.HomeDir))
		dir := t.TempDir()
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		root, empty := filepath.Join(dir, "root"), filepath.Join(dir, "empty")
		for _, d := range []string{root, empty} {
			if err := os.Mkdir(d, 0o555); err != nil {
				t.Fatal(err)
			}
		}
		port := freePort(t)
		conf := filepath.Join(dir, "vsftpd.conf")
		writeFile(t, conf, fmt.Sprintf(`listen=YES
listen_address=127.0.0.1
listen_port=%d
background=NO
anonymous_enable=YES
anon_root=%s
secure_chroot_dir=%s
local_enable=NO
write_enable=NO
nopriv_user=nobody
ftp_username=ftp
seccomp_sandbox=NO
xferlog_enable=NO
vsftpd_log_file=%s/log
`, port, root, empty, dir))
		requireDetailed(t, syscallsOf(t, traceRun{
			args: []string{"timeout", "-s", "TERM", serverLife, "vsftpd", conf},
			dir:  dir,
			client: func(t *testing.T) {
				if c := dialWhenUp(t, fmt.Sprintf("127.0.0.1:%d", port)); c != nil {
					converse(t, c, "USER anonymous\r\n", "PASS x@example.com\r\n", "PWD\r\n", "QUIT\r\n")
				}
			},
			exitOK: []int{124},
		}))
	})

	t.Run("lighttpd", func(t *testing.T) {
		testutil.Require(t, testutil.Binary("lighttpd"), testutil.Binary("timeout"))
		dir := t.TempDir()
		www := filepath.Join(dir, "www")
		if err := os.Mkdir(www, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(www, "index.html"), "hi\n")
		port := freePort(t)
		conf := filepath.Join(dir, "lighttpd.conf")
		writeFile(t, conf, fmt.Sprintf(`server.document-root = "%[1]s"
server.bind = "127.0.0.1"
server.port = %[2]d
server.errorlog = "%[3]s/error.log"
server.pid-file = "%[3]s/pid"
index-file.names = ( "index.html" )
mimetype.assign = ( ".html" => "text/html" )
server.modules = ( "mod_access", "mod_accesslog" )
accesslog.filename = "%[3]s/access.log"
`, www, port, dir))
		requireDetailed(t, syscallsOf(t, traceRun{
			args: []string{"timeout", "-s", "TERM", serverLife, "lighttpd", "-D", "-f", conf},
			dir:  dir,
			client: func(t *testing.T) {
				c := dialWhenUp(t, fmt.Sprintf("127.0.0.1:%d", port))
				if c == nil {
					return
				}
				c.Close()
				hc := &http.Client{Timeout: 3 * time.Second}
				for _, p := range []string{"/", "/missing"} {
					resp, err := hc.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, p))
					if err != nil {
						t.Errorf("GET %s: %v", p, err)
						continue
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			},
			exitOK: []int{124},
		}))
	})
}

// goVictim is a small Go program with goroutines, a network server and
// client, a child process, a signal and temporary files.
const goVictim = `package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

func main() {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) { defer wg.Done(); time.Sleep(time.Duration(i) * time.Millisecond) }(i)
	}
	wg.Wait()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") }))
	if resp, err := http.Get("http://" + ln.Addr().String() + "/"); err == nil {
		resp.Body.Close()
	}
	if _, err := exec.Command("echo", "x").Output(); err != nil {
		panic(err)
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR1)
	syscall.Kill(os.Getpid(), syscall.SIGUSR1)
	<-c
	f, err := os.CreateTemp("", "victim")
	if err != nil {
		panic(err)
	}
	f.WriteString("x")
	f.Close()
	os.Remove(f.Name())
	os.ReadDir("/")
	os.Hostname()
}
`
