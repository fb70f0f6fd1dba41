package envobj

import (
	"fmt"
	"net/netip"
	"strings"
)

// KindAddress is the kind of the start item (StartValue.Kind) that holds
// the addresses the command binds that a process holds here: not a path
// but a kernel object, put in place like the host name, by the run's
// namespace (a network namespace of the run's own, where every address
// is free). One item holds all of them: a run that frees one frees all.
const KindAddress = "address"

// Address is an IP address and port the good run bound and a process
// holds here, so that the command's bind fails with EADDRINUSE.
type Address struct {
	// AddrPort is the address as the good run bound it: "127.0.0.1:8080",
	// "[::]:53", "0.0.0.0:8080".
	AddrPort netip.AddrPort `json:"address"`
	// Proto is "tcp" or "udp"; "" when the trace does not show the
	// socket's type.
	Proto string `json:"proto,omitempty"`
	// BoundAt is the recorded call that bound it in the good run.
	BoundAt uint64 `json:"bound_at,omitempty"`
	// PID and Exe are the process that holds it here, as inspection
	// found it (launch.AddressHolderOf); PID 0 when the socket's holder
	// was not found (HolderWhy says why).
	PID       int    `json:"pid,omitempty"`
	Exe       string `json:"exe,omitempty"`
	HolderWhy string `json:"holder_why,omitempty"`
}

// String is the address and its protocol: "127.0.0.1:8080/tcp".
func (a Address) String() string {
	if a.Proto == "" {
		return a.AddrPort.String()
	}
	return a.AddrPort.String() + "/" + a.Proto
}

// Holder names the process that holds the address here: "pid 4242
// (/usr/bin/busybox)", "a process envbisect cannot see (...)".
func (a Address) Holder() string {
	switch {
	case a.PID > 0 && a.Exe != "":
		return fmt.Sprintf("pid %d (%s)", a.PID, a.Exe)
	case a.PID > 0:
		return fmt.Sprintf("pid %d", a.PID)
	case a.HolderWhy != "":
		return "a process envbisect cannot name (" + a.HolderWhy + ")"
	}
	return "a process envbisect cannot name"
}

// Says is what differs, both sides: "address 127.0.0.1:8080/tcp: held
// here by pid 4242 (/usr/bin/busybox), free in the good run (bound by
// call #812)".
func (a Address) Says() string {
	good := "free in the good run"
	if a.BoundAt != 0 {
		good += fmt.Sprintf(" (bound by call #%d)", a.BoundAt)
	}
	return fmt.Sprintf("address %s: held here by %s, %s", a, a.Holder(), good)
}

// Fix returns what a user does here to free the address: stop its
// holder, named, with the ss(8) command that shows it and, when its pid
// is known, the kill that stops it: "stop the process holding
// 127.0.0.1:8080/tcp (pid 4242, /usr/bin/busybox); ss -ltnp 'sport =
// :8080' shows it", "kill 4242". The run that validated it gave the
// command a network namespace of its own instead (AddressNote).
func (a Address) Fix() []FixStep {
	ss := "ss -ltunp"
	switch a.Proto {
	case "tcp":
		ss = "ss -ltnp"
	case "udp":
		ss = "ss -lunp"
	}
	show := fmt.Sprintf("%s 'sport = :%d'", ss, a.AddrPort.Port())
	who := "its holder"
	if a.PID > 0 {
		who = "pid " + fmt.Sprint(a.PID)
		if a.Exe != "" {
			who += ", " + a.Exe
		}
	}
	out := []FixStep{{Text: fmt.Sprintf("stop the process holding %s (%s); `%s` shows it", a, who, show)}}
	if a.PID > 0 {
		out = append(out, FixStep{Command: fmt.Sprintf("kill %d", a.PID)})
	}
	return out
}

// AddressesName names addresses for a start item (StartValue.Name):
// "127.0.0.1:8080/tcp", "127.0.0.1:8080/tcp, [::]:53/udp".
func AddressesName(as []Address) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = a.String()
	}
	return strings.Join(s, ", ")
}

// AddressesHere is the item's value here: "held by pid 4242
// (/usr/bin/busybox)", each address's holder.
func AddressesHere(as []Address) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = "held by " + a.Holder()
		if len(as) > 1 {
			s[i] = a.String() + " " + s[i]
		}
	}
	return strings.Join(s, "; ")
}

// AddressesGood is the item's value in the good run.
const AddressesGood = "free (the good run bound it)"

// AddressNote is what a fix that frees addresses says the validating run
// did differently from its steps.
const AddressNote = "the run that validated it did not stop the holder: it gave the command a network namespace of its own, " +
	"with only the loopback interface up, where every address is free; a command that also talks to a service " +
	"on this machine's network (127.0.0.1 included) would not have reached it there"
