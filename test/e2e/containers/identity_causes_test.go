package containers

import (
	"encoding/json"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// identityReport is what these tests read of `locate --json`: the
// status, the culprit, the identity items that differ here and could not
// be applied, and the one named as the cause.
type identityReport struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Culprit *struct {
		Syscall string `json:"syscall"`
		Path    string `json:"path"`
		Call    string `json:"call"`
		// Explanation is the culprit's: by the item that explains it.
		Explanation string `json:"explanation"`
		Here        struct {
			Errno  string `json:"errno"`
			Denied bool   `json:"denied"`
		} `json:"here"`
		Start *identityItem `json:"start"`
	} `json:"culprit"`
	Unapplied []identityItem `json:"unapplied"`
	// Causes and Roots: the causes named, and the roots they share.
	Causes []struct {
		Seq uint64 `json:"seq"`
	} `json:"causes"`
	Roots []struct {
		Kind     string       `json:"kind"`
		Says     string       `json:"says"`
		Item     identityItem `json:"item"`
		Causes   []int        `json:"causes"`
		Calls    int          `json:"calls"`
		Programs []string     `json:"programs"`
	} `json:"roots"`
	Cause *struct {
		Item identityItem `json:"item"`
		Seq  uint64       `json:"seq"`
		Call string       `json:"call"`
		Text string       `json:"text"`
	} `json:"cause"`
}

// identityItem is one start item of the report.
type identityItem struct {
	Kind   string   `json:"kind"`
	Name   string   `json:"name"`
	Good   *string  `json:"good"`
	Here   *string  `json:"here"`
	Docker string   `json:"docker"`
	Denies []string `json:"denies"`
	Text   string   `json:"text"`
	Why    string   `json:"why"`
	Remedy string   `json:"remedy"`
}

// locateIdentity records cmd in the good container and locates it in
// the bad one, whose docker exec must fail, and returns the report; the
// exit status of locate must be code.
func locateIdentity(t *testing.T, good, bad string, code int, cmd ...string) *identityReport {
	t.Helper()
	if c := dockerExitCode(append([]string{"exec", bad}, cmd...)...); c == 0 {
		t.Fatalf("docker exec %s %s passes: the bad container is not bad", bad, strings.Join(cmd, " "))
	}
	if c := dockerExitCode(append([]string{"exec", good}, cmd...)...); c != 0 {
		t.Fatalf("docker exec %s %s fails (%d): the good container is not good", good, strings.Join(cmd, " "), c)
	}
	trace := t.TempDir() + "/good.envb"
	mustExit(t, 0, append([]string{"record", "-q", "--container", good, "-o", trace, "--"}, cmd...)...)
	r := mustExit(t, code, append([]string{"locate", "--json", "-q", "--container", bad, trace, "--"}, cmd...)...)
	var rep identityReport
	if err := json.Unmarshal(r.Stdout, &rep); err != nil {
		t.Fatalf("locate --json: %v\n%s", err, r)
	}
	return &rep
}

// scriptRoot is identityRoot with an executable script, /bin/hello.sh.
func scriptRoot(t *testing.T) *testutil.Rootfs {
	root := identityRoot(t)
	root.Files["bin/hello.sh"] = []byte("#!/bin/sh\necho hello\n")
	root.Exec["bin/hello.sh"] = true
	return root
}

// TestContainerReadOnlyNamed: with --read-only, creating a file in / fails
// with EROFS; locate names the create, and as its cause the root mount,
// read-only here, in docker run's words.
func TestContainerReadOnlyNamed(t *testing.T) {
	requireDockerTracing(t)
	image := testutil.ImportImage(t, identityRoot(t), "/")
	good := startWith(t, image, "good")
	bad := startWith(t, image, "bad", "--read-only")
	rep := locateIdentity(t, good, bad, 0, "sh", "-c", "echo x > /written")
	if rep.Status != "located" || rep.Culprit == nil {
		t.Fatalf("locate: status %q (%s), want located", rep.Status, rep.Message)
	}
	if c := rep.Culprit; c.Path != "/written" || c.Here.Errno != "EROFS" {
		t.Errorf("culprit %s %s = %s (%s), want the create of /written = EROFS", c.Syscall, c.Path, c.Here.Errno, c.Call)
	}
	if !listed(rep.Unapplied, "mount", "/") {
		t.Errorf("unapplied %+v: the root mount is not listed", rep.Unapplied)
	}
	if c := rep.Cause; c == nil || c.Item.Kind != "mount" || c.Item.Name != "/" || c.Item.Docker != "--read-only" {
		t.Errorf("cause %+v, want the mount / said as --read-only", rep.Cause)
	}
}

// TestContainerTmpfsNoexecNamed: with --tmpfs /tmp (noexec by default),
// running a script copied to /tmp fails with EACCES. Replayed, the execve
// runs the image the trace keeps (the script's interpreter, from a memfd,
// which no mount makes noexec), so the execve is the culprit; the report
// names the noexec mount as its cause.
func TestContainerTmpfsNoexecNamed(t *testing.T) {
	requireDockerTracing(t)
	image := testutil.ImportImage(t, scriptRoot(t), "/")
	good := startWith(t, image, "good")
	bad := startWith(t, image, "bad", "--tmpfs", "/tmp")
	rep := locateIdentity(t, good, bad, 0, "sh", "-c", "cp /bin/hello.sh /tmp/hello.sh && /tmp/hello.sh")
	if rep.Status != "located" || rep.Culprit == nil || !strings.HasPrefix(rep.Culprit.Syscall, "execve") ||
		rep.Culprit.Path != "/tmp/hello.sh" || rep.Culprit.Here.Errno != "EACCES" {
		t.Errorf("locate: status %q (%s), culprit %+v, want the execve of /tmp/hello.sh = EACCES", rep.Status, rep.Message, rep.Culprit)
	}
	if !listed(rep.Unapplied, "mount", "/tmp") {
		t.Errorf("unapplied %+v: the /tmp mount is not listed", rep.Unapplied)
	}
	c := rep.Cause
	if c == nil || c.Item.Kind != "mount" || c.Item.Name != "/tmp" || c.Item.Docker != "--tmpfs /tmp (noexec)" {
		t.Fatalf("status %q (%s): cause %+v, want the mount /tmp said as --tmpfs /tmp (noexec)", rep.Status, rep.Message, c)
	}
	if !strings.Contains(c.Text, "EACCES") || !strings.Contains(c.Call, "/tmp/hello.sh") {
		t.Errorf("cause %q, evidence %q: want the EACCES of the exec of /tmp/hello.sh", c.Text, c.Call)
	}
}

// TestContainerSeccompFilterNamed: a seccomp profile that denies chmod
// (in all its forms) with EPERM: the culprit is the chmod of
// /etc/passwd, denied by the filter, and the
// cause is the seccomp filter, said as --security-opt seccomp=... naming
// the call it denies.
func TestContainerSeccompFilterNamed(t *testing.T) {
	requireDockerTracing(t)
	root := identityRoot(t)
	root.Symlinks["bin/chmod"] = "busybox"
	image := testutil.ImportImage(t, root, "/")
	good := startWith(t, image, "good")
	bad := startWith(t, image, "bad", "--security-opt", "seccomp="+denyProfile(t, 1, "chmod", "fchmod", "fchmodat", "fchmodat2"))
	rep := locateIdentity(t, good, bad, 0, "chmod", "644", "/etc/passwd")
	if rep.Status != "located" || rep.Culprit == nil {
		t.Fatalf("locate: status %q (%s), want located", rep.Status, rep.Message)
	}
	cu := rep.Culprit
	if !strings.Contains(cu.Syscall, "chmod") || cu.Path != "/etc/passwd" || cu.Here.Errno != "EPERM" || !cu.Here.Denied {
		t.Errorf("culprit %s %s = %s denied=%v (%s), want the chmod of /etc/passwd denied with EPERM", cu.Syscall, cu.Path,
			cu.Here.Errno, cu.Here.Denied, cu.Call)
	}
	var filter *identityItem
	for i := range rep.Unapplied {
		if rep.Unapplied[i].Kind == "seccomp_filter" {
			filter = &rep.Unapplied[i]
		}
	}
	if filter == nil || !slices.Contains(filter.Denies, cu.Syscall) || !strings.Contains(filter.Docker, "denies "+cu.Syscall) {
		t.Errorf("unapplied %+v: want the seccomp filter listed, denying %s", rep.Unapplied, cu.Syscall)
	}
	c := rep.Cause
	if c == nil || c.Item.Kind != "seccomp_filter" || !strings.HasPrefix(c.Item.Docker, "--security-opt seccomp=") ||
		!strings.Contains(c.Item.Docker, "denies "+cu.Syscall) {
		t.Errorf("cause %+v, want the seccomp filter, said as --security-opt seccomp=... denying %s", c, cu.Syscall)
	}
}

// listed reports whether items hold the item kind name.
func listed(items []identityItem, kind, name string) bool {
	for _, it := range items {
		if it.Kind == kind && it.Name == name {
			return true
		}
	}
	return false
}

// TestContainerCapDropNamed: with --cap-drop CHOWN the chown fails with
// EPERM. Replaying the good run's bounding set would give the command
// CAP_CHOWN, which this container does not give: a run never holds more
// than its container (issue 26), so the set is listed as not applied,
// saying what it would grant, and named as the cause of the chown's
// EPERM, said as --cap-drop CHOWN; the culprit is the chown itself.
func TestContainerCapDropNamed(t *testing.T) {
	requireDockerTracing(t)
	image := testutil.ImportImage(t, identityRoot(t), "/")
	good := startWith(t, image, "good")
	bad := startWith(t, image, "bad", "--cap-drop", "CHOWN")
	for _, c := range []string{good, bad} {
		testutil.RunDocker(t, nil, "exec", c, "touch", "/tmp/owned")
	}
	rep := locateIdentity(t, good, bad, 0, "chown", "1000", "/tmp/owned")
	if rep.Status != "located" || rep.Culprit == nil {
		t.Fatalf("locate: status %q (%s), culprit %+v, want the chown", rep.Status, rep.Message, rep.Culprit)
	}
	if c := rep.Culprit; c.Start != nil || c.Syscall != "chown" && c.Syscall != "fchownat" || c.Path != "/tmp/owned" || c.Here.Errno != "EPERM" {
		t.Errorf("culprit %s %s = %s (start %+v, %s), want the chown of /tmp/owned = EPERM", c.Syscall, c.Path, c.Here.Errno, c.Start, c.Call)
	}
	var bounding *identityItem
	for i := range rep.Unapplied {
		if rep.Unapplied[i].Kind == "caps" && rep.Unapplied[i].Name == "bounding" {
			bounding = &rep.Unapplied[i]
		}
	}
	if bounding == nil || !strings.Contains(bounding.Why, "would grant CAP_CHOWN in the bounding set") || !strings.Contains(bounding.Why, bad) ||
		!strings.Contains(bounding.Remedy, "--cap-add CHOWN") {
		t.Errorf("unapplied %+v: want the bounding set, not applied because it would grant CAP_CHOWN beyond %s, remedy --cap-add CHOWN", rep.Unapplied, bad)
	}
	// Named, not in hex (issue 28): the set by its capability, the
	// culprit's explanation by the capability it lacks here.
	if want := "CAP_CHOWN: in the good run's bounding set, not here"; bounding != nil && bounding.Text != want {
		t.Errorf("unapplied bounding set says %q, want %q", bounding.Text, want)
	}
	c := rep.Cause
	if c == nil || c.Item.Kind != "caps" || c.Item.Name != "bounding" || c.Item.Docker != "--cap-drop CHOWN" || !strings.Contains(c.Text, "CAP_CHOWN") {
		t.Errorf("cause %+v, want the bounding set lacking CAP_CHOWN, said as --cap-drop CHOWN", c)
	}
	if want := "CAP_CHOWN is in the good run's bounding set, not here (--cap-drop CHOWN)."; !strings.HasSuffix(rep.Culprit.Explanation, want) {
		t.Errorf("culprit explanation %q, want it to end %q", rep.Culprit.Explanation, want)
	}
}

// TestContainerSeccompFilterOneRoot: a seccomp profile that denies the
// chmod calls; one command runs chmod and mkdir -m, each denied and
// failing, and cp -p, denied too but only warning. The search names the
// failing calls as causes; they are one root, the filter, named once
// with every call it denied counted (cp's too) and the program that
// made them (busybox, whose applets these are), not one cause per call.
func TestContainerSeccompFilterOneRoot(t *testing.T) {
	requireDockerTracing(t)
	root := identityRoot(t)
	for _, tool := range []string{"chmod"} {
		root.Symlinks["bin/"+tool] = "busybox"
	}
	image := testutil.ImportImage(t, root, "/")
	good := startWith(t, image, "good")
	bad := startWith(t, image, "bad", "--security-opt", "seccomp="+denyProfile(t, 1, "chmod", "fchmod", "fchmodat", "fchmodat2"))
	script := "rc=0; cd /tmp && rm -rf m c p; touch c; chmod 600 c || rc=1; mkdir -m 700 m || rc=1; cp -p c p; exit $rc"
	rep := locateIdentity(t, good, bad, 0, "sh", "-c", script)
	if rep.Status != "located" {
		t.Fatalf("locate: status %q (%s), want located", rep.Status, rep.Message)
	}
	if len(rep.Roots) != 1 {
		t.Fatalf("%d roots, want one (the filter); causes %d", len(rep.Roots), len(rep.Causes))
	}
	rt := rep.Roots[0]
	if rt.Kind != "seccomp_filter" || !strings.HasPrefix(rt.Says, "the seccomp filter here") || !strings.Contains(rt.Says, "denies ") ||
		!strings.Contains(rt.Says, "chmod") {
		t.Errorf("root %s %q, want the seccomp filter denying a chmod call", rt.Kind, rt.Says)
	}
	if len(rt.Causes) != len(rep.Causes) || rt.Calls < 3 {
		t.Errorf("root explains causes %v of %d, met by %d calls; want all, and at least 3 calls (cp's too)", rt.Causes, len(rep.Causes), rt.Calls)
	}
	// busybox's applets are one image: the program that met the filter
	// is busybox, whichever applet ran (the image, not argv[0]).
	if len(rt.Programs) != 1 || path.Base(rt.Programs[0]) != "busybox" {
		t.Errorf("root met by programs %q, want busybox (chmod, mkdir and cp are its applets)", rt.Programs)
	}
	if !strings.HasPrefix(rep.Message, "one root: the seccomp filter here") {
		t.Errorf("message %q, want it to name the filter first", rep.Message)
	}
}
