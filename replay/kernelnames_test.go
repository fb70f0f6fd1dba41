package replay

import (
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/verdict"
)

// TestExecuteUname: a materialized run with the good run's kernel
// release and version in place shows them to uname(1) and to Python's
// platform module, also with the good host name in place (its UTS
// namespace, left as it is), and the command stopped only at uname: a
// loop of file reads and execs around it never reached the tracer.
// Without them the run is untraced and sees this kernel's.
func TestExecuteUname(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp, testutil.File("/bin/sh"), testutil.Binary("uname"), testutil.Binary("python3"))
	const release, version, host = "2.6.32-754.el6.x86_64", "#1 SMP Tue Jun 19 21:26:04 UTC 2018", "envbisect-good-host"
	script := `i=0; while [ $i -lt 20 ]; do cat /etc/os-release >/dev/null; i=$((i+1)); done
test "$(uname -r)" = '` + release + `' && test "$(uname -v)" = '` + version + `' && test "$(uname -n)" = ` + host + ` &&
python3 -c 'import platform, sys; sys.exit(platform.release() != "` + release + `")'`
	spec := Spec{
		Argv:    []string{"/bin/sh", "-c", script},
		CPU:     -1,
		Sandbox: sandbox.Spec{Hostname: host},
		Uname:   map[string]string{"release": release, "version": version},
	}
	out, printed, err := execute(t, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.Verdict != verdict.Pass {
		t.Fatalf("with the kernel release in place: %s (%s), printed %q; want pass", out.Verdict, out.Detail, printed)
	}
	if strings.Join(out.Stops, " ") != "uname" || out.Stopped < 4 {
		t.Errorf("stops %v (%d calls): want uname only, at least 4 times", out.Stops, out.Stopped)
	}
	spec.Uname = nil
	out, _, err = execute(t, spec, nil)
	if err != nil || out.Verdict != verdict.Fail || out.Stops != nil {
		t.Errorf("without: %+v (%v); want an untraced fail", out, err)
	}
	var u unix.Utsname
	unix.Uname(&u)
	if unix.ByteSliceToString(u.Release[:]) == release {
		t.Fatal("this machine runs the test's release")
	}
	for _, bad := range []map[string]string{{"nodename": "x"}, {"release": strings.Repeat("9", 65)}} {
		if err := (&Spec{Argv: []string{"true"}, Uname: bad}).Validate(); err == nil {
			t.Errorf("Uname %v is valid", bad)
		}
	}
}
