package depgraph

import "github.com/envbisect/envbisect/systable"

// The effects that make a call subject to each process attribute: the
// credentials decide what a call may open, exec, signal or bind; limits
// how many fds and processes it may make; the umask the mode of what it
// creates; root and namespaces what its paths and addresses name. A call
// that reads the environment (getuid, getrlimit, umask) reads them all.
const (
	credsUsers = systable.NamesPath | systable.CreatesFD | systable.CreatesFDPair | systable.ExecsImage |
		systable.SignalsProcess | systable.BindsAddress | systable.ReadsEnvironment | systable.ChangesCreds
	limitsUsers = systable.CreatesFD | systable.CreatesFDPair | systable.CreatesProcess |
		systable.ReadsEnvironment | systable.ChangesLimits
	umaskUsers = systable.CreatesPath | systable.ReadsEnvironment | systable.ChangesUmask
	viewUsers  = systable.NamesPath | systable.BindsAddress | systable.ConnectsAddress | systable.ChangesRoot |
		systable.ChangesNamespace | systable.ChangesMounts | systable.ReadsEnvironment
	etcUsers = systable.ReadsEnvironment | systable.ChangesProcess
)

// useAttrs adds the edges to the calls that last changed the process
// attributes the call is subject to.
func (b *builder) useAttrs(x *callCtx) {
	a, e := x.p.attrs, x.eff
	for _, u := range []struct {
		users systable.Effect
		def   uint64
	}{{credsUsers, a.creds}, {limitsUsers, a.limits}, {umaskUsers, a.umask}, {viewUsers, a.view}, {etcUsers, a.etc}} {
		if e&u.users != 0 {
			b.dep(x, u.def, ByAttrs, a.res)
		}
	}
}

// defineAttrs records a successful change of the process's attributes.
func (b *builder) defineAttrs(x *callCtx) {
	a, e := x.p.attrs, x.eff
	if e&systable.ChangesCreds != 0 {
		a.creds = x.seq
	}
	if e&systable.ChangesLimits != 0 {
		a.limits = x.seq
	}
	if e&systable.ChangesUmask != 0 {
		a.umask = x.seq
	}
	if e&(systable.ChangesRoot|systable.ChangesNamespace) != 0 {
		a.view = x.seq
	}
	if e&systable.ChangesProcess != 0 {
		a.etc = x.seq
	}
}
