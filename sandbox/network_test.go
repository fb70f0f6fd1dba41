package sandbox

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestOwnNetworkFreesAnAddress: an address this test holds cannot be
// bound in a run as it is (EADDRINUSE), and can in a run with a network
// namespace of its own (Spec.OwnNetwork), where lo is up: a client of
// the run reaches the server it started there on 127.0.0.1, and not the
// listener this test holds outside.
func TestOwnNetworkFreesAnAddress(t *testing.T) {
	testutil.Require(t, testutil.File("/usr/bin/python3"))
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no TCP listener here: %v", err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	script := fmt.Sprintf(`exec /usr/bin/python3 -c '
import socket
s = socket.socket()
try:
    s.bind(("127.0.0.1", %d))
except OSError as e:
    print("bind:", e.strerror); raise SystemExit(1)
s.listen()
c = socket.create_connection(s.getsockname(), timeout=5)
a, _ = s.accept()
c.sendall(b"hello"); print("got", a.recv(5).decode())
'`, port)
	inWorkNS(t, func(work string) error {
		r, err := runSandboxed(Spec{}, work, script)
		if err != nil {
			return err
		}
		if r.code != 1 || !strings.Contains(r.stdout, "Address already in use") {
			return fmt.Errorf("as it is: exit %d, stdout %q, stderr %q; want the bind refused (EADDRINUSE)", r.code, r.stdout, r.stderr)
		}
		r, err = runSandboxed(Spec{OwnNetwork: true}, work, script)
		if err != nil {
			return err
		}
		if r.code != 0 || strings.TrimSpace(r.stdout) != "got hello" {
			return fmt.Errorf("with its own network: exit %d, stdout %q, stderr %q; want the bind and a connection over lo", r.code, r.stdout, r.stderr)
		}
		return nil
	})
}
