package envobj

import (
	"net/netip"
	"slices"
	"testing"
)

// A held address says both sides and its holder, and its fix stops the
// holder: in words with the ss(8) command that shows it, then its kill;
// without a pid, the words alone.
func TestAddressSaysAndFix(t *testing.T) {
	ap := netip.MustParseAddrPort
	for _, c := range []struct {
		name string
		a    Address
		says string
		fix  []string
	}{
		{"tcp, holder known", Address{AddrPort: ap("127.0.0.1:8080"), Proto: "tcp", BoundAt: 812, PID: 4242, Exe: "/usr/bin/busybox"},
			"address 127.0.0.1:8080/tcp: held here by pid 4242 (/usr/bin/busybox), free in the good run (bound by call #812)",
			[]string{"stop the process holding 127.0.0.1:8080/tcp (pid 4242, /usr/bin/busybox); `ss -ltnp 'sport = :8080'` shows it", "kill 4242"}},
		{"udp on ::, holder unknown", Address{AddrPort: ap("[::]:5353"), Proto: "udp", HolderWhy: "socket 77 is held by no process this one can see"},
			"address [::]:5353/udp: held here by a process envbisect cannot name (socket 77 is held by no process this one can see), free in the good run",
			[]string{"stop the process holding [::]:5353/udp (its holder); `ss -lunp 'sport = :5353'` shows it"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.a.Says(); got != c.says {
				t.Errorf("Says = %q\nwant   %q", got, c.says)
			}
			var fix []string
			for _, s := range c.a.Fix() {
				fix = append(fix, s.String())
			}
			if !slices.Equal(fix, c.fix) {
				t.Errorf("Fix = %q\nwant  %q", fix, c.fix)
			}
		})
	}
}

// A start item of held addresses is named by them, says and fixes each.
func TestAddressStartValue(t *testing.T) {
	as := []Address{
		{AddrPort: netip.MustParseAddrPort("127.0.0.1:8080"), Proto: "tcp", PID: 10, Exe: "/usr/bin/nc"},
		{AddrPort: netip.MustParseAddrPort("[::]:53"), Proto: "udp", PID: 11},
	}
	good, here := AddressesGood, AddressesHere(as)
	sv := StartValue{Kind: KindAddress, Name: AddressesName(as), Good: &good, Here: &here, Addresses: as}
	if got, want := sv.Label(), "address 127.0.0.1:8080/tcp, [::]:53/udp"; got != want {
		t.Errorf("Label = %q, want %q", got, want)
	}
	if want := "127.0.0.1:8080/tcp held by pid 10 (/usr/bin/nc); [::]:53/udp held by pid 11"; here != want {
		t.Errorf("AddressesHere = %q, want %q", here, want)
	}
	if got, want := sv.Says(), as[0].Says()+"; "+as[1].Says(); got != want {
		t.Errorf("Says = %q, want %q", got, want)
	}
	var cmds []string
	for _, s := range sv.Fix() {
		if s.Command != "" {
			cmds = append(cmds, s.Command)
		}
	}
	if !slices.Equal(cmds, []string{"kill 10", "kill 11"}) {
		t.Errorf("Fix's commands = %q, want kill 10, kill 11", cmds)
	}
}
