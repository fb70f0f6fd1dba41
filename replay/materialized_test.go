package replay

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/container"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/verdict"
)

// TestSpecJSON: a spec survives JSON, every field of it.
func TestSpecJSON(t *testing.T) {
	good := trace.Hash(sha256.Sum256([]byte("good\n")))
	spec := Spec{
		Join: &trace.Join{PID: 4242, CgroupDir: "/sys/fs/cgroup/x", CgroupID: 7, Name: "container bad (0844870a481a)",
			Exec: &trace.ExecSpec{UID: 1000, GID: 1000, Groups: []uint32{1000, 1500}, Caps: trace.CapSets{Bounding: 0x3fff},
				NoNewPrivs: true, Rlimits: []trace.Limit{{Resource: 7, Cur: 1024, Max: 4096}}}},
		Argv: []string{"make", "test"},
		Env:  []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8"},
		Dir:  "/src",
		Start: []align.StartDiff{
			{Kind: trace.StartEnv, Name: "TZ", A: &trace.StartEvent{Kind: trace.StartEnv, Name: "TZ", Value: "UTC"}},
			{Kind: trace.StartEnv, Name: "LD_PRELOAD", B: &trace.StartEvent{Kind: trace.StartEnv, Name: "LD_PRELOAD", Value: "x.so"}},
			{Kind: trace.StartUmask, A: &trace.StartEvent{Kind: trace.StartUmask, Value: "0022"}, B: &trace.StartEvent{Kind: trace.StartUmask, Value: "0077"}},
		},
		Sandbox: sandbox.Spec{Persist: []string{"/var/lib/db"}, Objects: []envobj.Op{
			{Kind: envobj.OpWrite, Path: "/etc/app.conf", Mode: 0o640, UID: 0, GID: 4, MtimeNS: 1577934245000000000, Content: good},
			{Kind: envobj.OpMkdir, Path: "/run/mpd", Mode: 0o755},
			{Kind: envobj.OpSymlink, Path: "/etc/localtime", Target: "/usr/share/zoneinfo/UTC"},
			{Kind: envobj.OpRemove, Path: "/etc/app.d/extra.conf"},
			{Kind: envobj.OpChmod, Path: "/tmp", Mode: 0o1777},
			{Kind: envobj.OpChown, Path: "/srv", UID: 33, GID: 33},
			{Kind: envobj.OpMtime, Path: "/srv/index.html", MtimeNS: 1},
		}},
		Judge:   verdict.Spec{Check: "test -f out", Alive: 2 * time.Second, Timeout: 30 * time.Second},
		CPU:     1,
		KeepFDs: []int{251},
	}
	b, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	var back Spec
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(spec, back) {
		t.Errorf("JSON round trip changed the spec:\n%s\nback: %+v", b, back)
	}
	if err := back.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	// nil and empty environments stay apart: nil is envbisect's own.
	for _, env := range [][]string{nil, {}} {
		b, _ := json.Marshal(Spec{Argv: []string{"true"}, Env: env})
		var s Spec
		json.Unmarshal(b, &s)
		if (s.Env == nil) != (env == nil) {
			t.Errorf("env %#v came back as %#v (%s)", env, s.Env, b)
		}
	}
	for _, bad := range []Spec{{}, {Argv: []string{"x"}, Sandbox: sandbox.Spec{Objects: []envobj.Op{{Kind: envobj.OpWrite, Path: "etc/x"}}}}} {
		if err := bad.Validate(); err == nil {
			t.Errorf("Validate(%+v): no error", bad)
		}
	}
}

// inheritable opens /dev/null without close-on-exec at fd at, closed
// when the test ends.
func inheritable(t *testing.T, at int) {
	t.Helper()
	fd, err := unix.Open(os.DevNull, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if err := unix.Dup3(fd, at, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(at) })
}

// execute runs spec with contents and returns its outcome and what the
// command printed.
func execute(t *testing.T, spec Spec, contents sandbox.Contents) (*Outcome, string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	outc := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(r)
		outc <- string(b)
	}()
	out, err := Execute(context.Background(), spec, contents, Attach{Stdout: w, Stderr: w})
	w.Close()
	return out, <-outc, err
}

// TestExecuteObjects: a command that checks a file under /etc, a
// directory's mode, a missing directory under /run, a symbolic link and
// a removed file passes only in a materialized run with those objects in
// place; it runs untraced (TracerPid 0, no seccomp filter) with
// descriptors 0, 1 and 2 only; a check after it reads what it wrote in
// its view; and afterwards nothing of the run is on the real file system.
func TestExecuteObjects(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.File("/bin/sh"), testutil.Binary("stat"), testutil.Binary("ls"))
	inheritable(t, 240)
	dir := t.TempDir()
	shared, gone := filepath.Join(dir, "shared"), filepath.Join(dir, "gone")
	if err := os.Mkdir(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gone, []byte("here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tag := fmt.Sprint(os.Getpid())
	conf, run, link, artifact := "/etc/envbisect-test-"+tag+".conf", "/run/envbisect-test-"+tag, filepath.Join(dir, "link"), "/tmp/envbisect-artifact-"+tag
	c := sandbox.MemContents{}
	good := c.Add("mode=good\n")
	script := `test "$(cat ` + conf + `)" = mode=good || exit 1
test "$(stat -c %a ` + shared + `)" = 1777 || exit 2
test -d ` + run + ` || exit 3
test "$(readlink ` + link + `)" = ` + conf + ` || exit 4
test ! -e ` + gone + ` || exit 5
grep -qx 'TracerPid:	0' /proc/self/status || exit 6
grep -qx 'Seccomp:	0' /proc/self/status || exit 7
ls /proc/$$/fd
echo built > ` + artifact
	spec := Spec{
		Argv: []string{"/bin/sh", "-c", script}, CPU: -1,
		Sandbox: sandbox.Spec{Objects: []envobj.Op{
			{Kind: envobj.OpWrite, Path: conf, Mode: 0o644, Content: good},
			{Kind: envobj.OpChmod, Path: shared, Mode: 0o1777},
			{Kind: envobj.OpMkdir, Path: run, Mode: 0o755},
			{Kind: envobj.OpSymlink, Path: link, Target: conf},
			{Kind: envobj.OpRemove, Path: gone},
		}},
		Judge: verdict.Spec{Check: "test \"$(cat " + artifact + ")\" = built"},
	}
	out, printed, err := execute(t, spec, c)
	if err != nil {
		t.Fatal(err)
	}
	if out.Verdict != verdict.Pass || out.ExitCode != 0 {
		t.Errorf("with the objects: %s (%s), exit %d, printed %q; want pass", out.Verdict, out.Detail, out.ExitCode, printed)
	}
	if printed != "0\n1\n2\n" {
		t.Errorf("the command's descriptors: %q, want 0, 1 and 2 only", printed)
	}
	without := spec
	without.Sandbox.Objects, without.Judge = nil, verdict.Spec{}
	out, printed, err = execute(t, without, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Verdict != verdict.Fail || out.ExitCode != 1 {
		t.Errorf("without the objects: %s (%s), printed %q; want fail, exit 1", out.Verdict, out.Detail, printed)
	}
	for _, p := range []string{conf, run, link, artifact} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s exists after the runs: %v", p, err)
		}
	}
	if fi, err := os.Stat(shared); err != nil || fi.Mode().Perm() != 0o755 || fi.Mode()&os.ModeSticky != 0 {
		t.Errorf("%s after the runs: %v, %v; want drwxr-xr-x", shared, fi.Mode(), err)
	}
	if b, err := os.ReadFile(gone); err != nil || string(b) != "here\n" {
		t.Errorf("%s after the runs: %q, %v", gone, b, err)
	}
}

// TestExecuteIdentity: a run whose spec gives the command another uid
// (a start item applied to the exec spec of the process it joins) runs
// as that user, and an OpChown gives it the directory it needs; a start
// item that would raise the command above its environment's identity is
// refused (launch.Bound); on the host the item is applied as well.
func TestExecuteIdentity(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.File("/bin/sh"), testutil.Binary("id"))
	target := testutil.Unshare(t, []string{"--mount", "--pid", "--mount-proc"}, "true")
	self, err := launch.SelfSpec()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir() // in a directory of the test's that only root may enter
	uid := func(v string) align.StartDiff {
		return align.StartDiff{Kind: trace.StartCreds, Name: trace.CredsUID, A: &trace.StartEvent{Kind: trace.StartCreds, Name: trace.CredsUID, Value: v}}
	}
	spec := Spec{
		Join: &trace.Join{PID: target, Name: "test namespace", Exec: &self},
		Argv: []string{"sh", "-c", `test "$(id -u)" = 1000 && touch ` + dir + `/made && test "$(stat -c %u ` + dir + `)" = 1000`},
		Env:  []string{"PATH=/usr/bin:/bin"}, CPU: -1,
		Start: []align.StartDiff{uid("1000 1000 1000 1000")},
		Sandbox: sandbox.Spec{Objects: []envobj.Op{
			{Kind: envobj.OpChmod, Path: filepath.Dir(dir), Mode: 0o755},
			{Kind: envobj.OpChown, Path: dir, UID: 1000, GID: 1000},
		}},
	}
	out, printed, err := execute(t, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Verdict != verdict.Pass {
		t.Errorf("as uid 1000 with the directory chowned: %s (%s), printed %q; want pass", out.Verdict, out.Detail, printed)
	}
	noChown := spec
	noChown.Sandbox.Objects = spec.Sandbox.Objects[:1]
	if out, printed, err := execute(t, noChown, nil); err != nil || out.Verdict != verdict.Fail {
		t.Errorf("as uid 1000 without the chown: %v, %+v, printed %q; want fail", err, out, printed)
	}
	if _, err := os.Lstat(filepath.Join(dir, "made")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the command's file is on the real file system: %v", err)
	}

	// An environment whose command runs as 1000 without capabilities: a
	// trace cannot make its run root.
	user := trace.ExecSpec{UID: 1000, GID: 1000, Groups: []uint32{1000}}
	raise := spec
	raise.Join = &trace.Join{PID: target, Name: "test namespace as 1000", Exec: &user}
	raise.Start = []align.StartDiff{uid("0 0 0 0")}
	raise.Sandbox.Objects = nil
	_, _, err = execute(t, raise, nil)
	var ge *launch.GrantsError
	if !errors.As(err, &ge) || !strings.Contains(err.Error(), "uid 0 (root)") {
		t.Errorf("uid 0 in an environment of uid 1000: %v, want a GrantsError naming uid 0", err)
	}
	// On the host (a plain run), the item is applied too: envbisect, root,
	// may set the command's user id (launch.PlainReach).
	plain := Spec{Argv: []string{"id", "-u"}, CPU: -1, Start: []align.StartDiff{uid("1000 1000 1000 1000")}}
	if out, printed, err := execute(t, plain, nil); err != nil || out.Verdict != verdict.Pass || strings.TrimSpace(printed) != "1000" {
		t.Errorf("an identity item on the host: %v, %+v, printed %q; want id -u to print 1000", err, out, printed)
	}
}

// TestExecuteContainer: in a container (--container), the objects are
// paths as the container sees them: a file written into its /etc is
// what the command reads there, untraced, and the container's own file
// system has no trace of it afterwards.
func TestExecuteContainer(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Docker)
	root := testutil.BusyboxRoot(t, "/bin/busybox")
	name := testutil.StartContainer(t, testutil.ImportImage(t, root, "/"), "objects")
	ct, err := container.Lookup(context.Background(), name, container.Sockets(os.Getenv))
	if err != nil {
		t.Fatal(err)
	}
	if ct.SeccompFilters > 0 {
		if ct.Exec.Seccomp, err = ptrace.CopySeccompFilters(ct.PID); err != nil {
			t.Fatal(err)
		}
	}
	c := sandbox.MemContents{}
	good := c.Add("inside=good\n")
	spec := Spec{
		Join: &trace.Join{PID: ct.PID, CgroupDir: ct.CgroupDir, CgroupID: ct.CgroupID, Name: ct.String(), Exec: ct.Exec},
		Argv: []string{"sh", "-c", `cat /etc/envbisect.conf && grep -x 'TracerPid:	0' /proc/self/status && grep '^Seccomp:' /proc/self/status`},
		Env:  ct.Env, Dir: ct.Dir, CPU: -1,
		Sandbox: sandbox.Spec{Objects: []envobj.Op{{Kind: envobj.OpWrite, Path: "/etc/envbisect.conf", Mode: 0o644, Content: good}}},
	}
	out, printed, err := execute(t, spec, c)
	if err != nil {
		t.Fatal(err)
	}
	if out.Verdict != verdict.Pass || !strings.HasPrefix(printed, "inside=good\nTracerPid:\t0\n") {
		t.Errorf("in the container: %s (%s), printed %q", out.Verdict, out.Detail, printed)
	}
	if ct.SeccompFilters > 0 && !strings.Contains(printed, "Seccomp:\t2") {
		t.Errorf("the container runs under seccomp filters; the command printed %q, want its own filter mode (2)", printed)
	}
	if n := testutil.RunDocker(t, nil, "exec", name, "sh", "-c", "test -e /etc/envbisect.conf && echo there || echo absent"); n != "absent" {
		t.Errorf("/etc/envbisect.conf in the container after the run: %s", n)
	}
}
