// Package dns_test locates a regression in DNS (issue 18, deliver 3:
// DNS answers as a resource): a name the good environment's DNS server
// answers and this one's does not, resolved by real Debian programs
// (getent, curl) through glibc's resolver inside a network namespace of
// the test's own, with the test's DNS server (testdata/victims/dnsserver)
// on a loopback address and /etc/resolv.conf, /etc/hosts and
// /etc/nsswitch.conf bind-mounted in a mount namespace of the test's
// own (the host's /etc is never changed). locate must name the DNS
// exchange, with both answers decoded, in its JSON and its text.
package dns_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
