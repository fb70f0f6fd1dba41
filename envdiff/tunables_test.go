package envdiff_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/internal/testutil"
)

// The tunables a recording read are compared by their values: in a root
// standing for another machine (a directory holding proc/sys), a
// tunable that reads otherwise is an object whose good value is what
// the recorded reads got; one that reads the same (the port range, read
// by the shell's read builtin a byte at a time, to which the kernel
// answers its first digit and then the end of the file: a prefix of
// the value) is none; a
// random UUID is volatile, skipped and never an object; a tunable
// missing there is skipped.
func TestInspectTunables(t *testing.T) {
	const (
		somaxconn = "/proc/sys/net/core/somaxconn"
		ports     = "/proc/sys/net/ipv4/ip_local_port_range"
		uuid      = "/proc/sys/kernel/random/uuid"
		ostype    = "/proc/sys/kernel/ostype"
	)
	hostValue := func(p string) string {
		b, err := os.ReadFile(p)
		must(t, err)
		return string(b)
	}
	good, goodPorts := hostValue(somaxconn), hostValue(ports)
	tr := recordIn(t, t.TempDir(), "cat "+somaxconn+" "+uuid+" "+ostype+" >/dev/null; read x < "+ports+" || true")

	root := t.TempDir()
	writeTree(t, root, map[string]string{
		somaxconn[1:]: "12\n",
		ports[1:]:     goodPorts,
		uuid[1:]:      "not the good run's\n",
	})
	d := inspect(t, tr, root)
	o := object(t, d, somaxconn)
	if !o.Tunable() || o.Good.Value != good || o.Here.Value != "12\n" || o.FirstSeq == 0 {
		t.Errorf("%s: %+v; want its value, %q in the good run and 12 here", somaxconn, o, good)
	}
	if want := `kernel tunable net.core.somaxconn is "12" here, "` + strings.TrimSpace(good) + `" in the good run`; !strings.HasPrefix(o.Says(), want) {
		t.Errorf("says %q; want %q", o.Says(), want)
	}
	for _, p := range []string{ports, uuid, ostype} {
		if d.Object(p) != nil {
			t.Errorf("%s is an object: %s", p, d.Object(p).Says())
		}
	}
	skipped := map[string]string{}
	for _, s := range d.Skipped {
		skipped[s.Path] = s.Why
	}
	if !strings.Contains(skipped[uuid], "changes by itself") {
		t.Errorf("%s skipped for %q; want as volatile", uuid, skipped[uuid])
	}
	if !strings.Contains(skipped[ostype], "missing here") {
		t.Errorf("%s skipped for %q; want as missing here", ostype, skipped[ostype])
	}
	if _, ok := skipped[ports]; ok {
		t.Errorf("%s skipped: %s", ports, skipped[ports])
	}
	if vals := envobj.TunableValues(d.Objects); len(vals) != 1 {
		t.Errorf("good values %q; want somaxconn's", vals)
	}
}

// A container's tunables are its network namespace's: /proc/sys/net
// shows the namespace of the process that reads it, whatever the mount.
// Inspect of a process's root (/proc/PID/root) reads them from a thread
// in that process's namespaces: here a shell in a network namespace of
// its own where somaxconn is 77, while this machine's is another.
func TestInspectTunablesOfAContainer(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("unshare"), testutil.Binary("sysctl"))
	const somaxconn = "/proc/sys/net/core/somaxconn"
	tr := recordIn(t, t.TempDir(), "cat "+somaxconn+" >/dev/null")
	good, err := os.ReadFile(somaxconn)
	must(t, err)
	if string(good) == "77\n" {
		t.Skip("this machine's somaxconn is 77, the value the test gives its namespace")
	}
	cmd := exec.Command("unshare", "--net", "sh", "-ec", "sysctl -qw net.core.somaxconn=77; echo ready; exec sleep 60")
	stdout, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("the namespace's shell said %q, %v", line, err)
	}
	d := inspect(t, tr, fmt.Sprintf("/proc/%d/root", cmd.Process.Pid))
	o := object(t, d, somaxconn)
	if o.Good.Value != string(good) || o.Here.Value != "77\n" {
		t.Errorf("%s: good %q, here %q; want this machine's %q and the namespace's 77", somaxconn, o.Good.Value, o.Here.Value, good)
	}
}
