package main

import (
	"errors"
	"net/netip"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/envdiff"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// addAddresses adds to the start items the object search tries the
// addresses the good run bound that a process holds here (envdiff's
// BoundAddresses and HeldAddresses, in the network namespace the runs
// are made in): one item for all of them, since a run puts them in place
// by giving the command a network namespace of its own (sandbox.Spec's
// OwnNetwork), where every address is free. The call-level search finds
// the same bind failing with EADDRINUSE and explains its holder instead,
// so it is an item of the object search only.
func (m *objectSearch) addAddresses() {
	var bound []envobj.Address
	if m.walked != nil {
		bound = m.walked.Bound() // the trace was streamed: t holds few of its calls
	} else {
		bound = envdiff.BoundAddresses(m.t, m.rec.Table)
	}
	held := envdiff.HeldAddresses(bound, holderOfIn(m.site.join))
	if len(held) == 0 {
		return
	}
	name, good, here := envobj.AddressesName(held), envobj.AddressesGood, envobj.AddressesHere(held)
	kind := trace.StartKind(envobj.KindAddress)
	d := align.StartDiff{Kind: kind, Name: name, A: &trace.StartEvent{Kind: kind, Name: name, Value: good},
		B: &trace.StartEvent{Kind: kind, Name: name, Value: here}}
	it := startItems([]align.StartDiff{d})[0]
	it.Addresses = held
	it.Text = envobj.StartValue{Kind: envobj.KindAddress, Addresses: held}.Says()
	m.start = append(append([]align.StartDiff(nil), m.start...), d)
	m.items = append(append([]render.StartItem(nil), m.items...), it)
}

// holderOfIn finds the process that holds an address for a protocol in
// the network namespace the runs are made in (join's, or envbisect's
// own); a free address is pid 0 and no error (envdiff.HolderFunc).
func holderOfIn(join *trace.Join) envdiff.HolderFunc {
	nsPID := 0
	if join != nil {
		nsPID = join.PID
	}
	return func(ap netip.AddrPort, proto string) (int, string, error) {
		pid, exe, err := launch.AddressHolderOf(ap, proto, nsPID)
		if errors.Is(err, launch.ErrNotBound) {
			return 0, "", nil
		}
		return pid, exe, err
	}
}

// isAddressItem reports whether start item d is the addresses'
// (addAddresses): a run puts it in place with a network namespace of its
// own rather than as a start item the launcher applies.
func isAddressItem(d align.StartDiff) bool { return d.Kind == trace.StartKind(envobj.KindAddress) }
