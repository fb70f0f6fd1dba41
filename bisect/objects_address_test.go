package bisect

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/envobj"
)

// An address the command binds, held here, is a start item like the host
// name: named the cause with its holder, its fix stops the holder, and
// the fix's note says the validating run gave the command a network
// namespace of its own instead.
func TestObjectsHeldAddressCause(t *testing.T) {
	as := []envobj.Address{{AddrPort: netip.MustParseAddrPort("127.0.0.1:8080"), Proto: "tcp", BoundAt: 812, PID: 4242, Exe: "/usr/bin/busybox"}}
	good, here := envobj.AddressesGood, envobj.AddressesHere(as)
	w := &objWorld{items: []StartItem{{Kind: envobj.KindAddress, Name: envobj.AddressesName(as), Good: &good, Here: &here, Addresses: as}}}
	w.noise(4)
	f := &fakeObjects{passes: func(_, start map[int]bool) bool { return start[0] }}
	rep := locateObjects(t, w, f, ObjectOptions{})
	if got := causeNames(rep); rep.Status != envobj.Located || !slices.Equal(got, []string{"address 127.0.0.1:8080/tcp"}) {
		t.Fatalf("status %s, causes %q", rep.Status, got)
	}
	c := rep.Causes[0]
	if want := "address 127.0.0.1:8080/tcp: held here by pid 4242 (/usr/bin/busybox), free in the good run (bound by call #812)"; c.Says != want {
		t.Errorf("says %q\nwant %q", c.Says, want)
	}
	if c.Start == nil || len(c.Start.Addresses) != 1 || c.Start.Addresses[0].PID != 4242 {
		t.Errorf("cause's start item %+v; want the address with its holder", c.Start)
	}
	if got := fixLines(rep.Fix); len(got) != 2 || !strings.HasPrefix(got[0], "stop the process holding 127.0.0.1:8080/tcp (pid 4242, /usr/bin/busybox)") || got[1] != "kill 4242" {
		t.Errorf("fix %q", got)
	}
	if !rep.Fix.Validated || rep.Fix.Note != envobj.AddressNote {
		t.Errorf("fix validated %v, note %q; want validated, with the network namespace's note", rep.Fix.Validated, rep.Fix.Note)
	}
}
