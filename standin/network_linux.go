package standin

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"runtime"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/sandbox"
)

// Network is a run's stand-in network: its namespace and the goroutines
// that answer in it. Close ends them.
type Network struct {
	ns       *os.File // the namespace's nsfs file, kept open
	closers  []func() error
	wg       sync.WaitGroup
	mu       sync.Mutex
	problems []string
}

// Start makes the stand-in network for peers: peers[i] is answered from
// its recorded conversation when inPlace[i], relayed to the real address
// otherwise. A peer Materializable refuses is always relayed.
func Start(peers []envobj.Peer, inPlace []bool) (*Network, error) {
	n := &Network{}
	type made struct {
		ln  net.Listener
		pc  net.PacketConn
		err error
	}
	res := make([]made, len(peers))
	var nsErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		// The thread is left locked: it ends with this goroutine, and
		// with it the only thread in the new namespace.
		runtime.LockOSThread()
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			nsErr = fmt.Errorf("unshare(CLONE_NEWNET) for the run's stand-in network: %w (needs CAP_SYS_ADMIN: run as root)", err)
			return
		}
		if err := sandbox.LoopbackUp(); err != nil {
			nsErr = fmt.Errorf("bring up lo in the run's stand-in network: %w", err)
			return
		}
		f, err := os.Open("/proc/thread-self/ns/net")
		if err != nil {
			nsErr = fmt.Errorf("the stand-in network's namespace: %w", err)
			return
		}
		n.ns = f
		for i, p := range peers {
			res[i].ln, res[i].pc, res[i].err = listen(p.AddrPort, p.Proto)
		}
	}()
	<-done
	if nsErr != nil {
		return nil, nsErr
	}
	var errs []error
	for i, p := range peers {
		r := res[i]
		if r.err != nil {
			errs = append(errs, fmt.Errorf("stand-in for %s: %w", p.String(), r.err))
			continue
		}
		ok, _ := p.Materializable()
		replay := i < len(inPlace) && inPlace[i] && ok
		switch {
		case r.ln != nil:
			n.closers = append(n.closers, r.ln.Close)
			n.goServe(func() { n.serveTCP(r.ln, &peers[i], replay) })
		case r.pc != nil:
			n.closers = append(n.closers, r.pc.Close)
			n.goServe(func() { n.serveUDP(r.pc, &peers[i], replay) })
		}
	}
	if len(errs) > 0 {
		n.Close()
		return nil, errors.Join(errs...)
	}
	return n, nil
}

// Path is the nsfs file of the run's namespace, for sandbox.Spec.NetNS:
// "/proc/PID/fd/N" of envbisect's, valid until Close.
func (n *Network) Path() string { return fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), n.ns.Fd()) }

// Close stops the stand-ins and relays and releases the namespace; it
// returns what the stand-ins met that the good run's conversation does
// not hold (a request that differs, a question not asked): a run with
// any is one whose verdict cannot be trusted.
func (n *Network) Close() []string {
	for _, c := range n.closers {
		c()
	}
	n.closers = nil
	n.wg.Wait()
	if n.ns != nil {
		n.ns.Close()
		n.ns = nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.problems
}

// goServe runs f as one of the network's goroutines.
func (n *Network) goServe(f func()) {
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		f()
	}()
}

// problem notes what a stand-in met that the recording does not hold.
func (n *Network) problem(format string, args ...any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.problems = append(n.problems, fmt.Sprintf(format, args...))
}

// listen opens a listening TCP socket, or a bound UDP one, at ap in the
// calling thread's network namespace.
func listen(ap netip.AddrPort, proto string) (net.Listener, net.PacketConn, error) {
	family := unix.AF_INET
	var sa unix.Sockaddr = &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().Unmap().As4()}
	if ap.Addr().Is6() && !ap.Addr().Is4In6() {
		family = unix.AF_INET6
		sa = &unix.SockaddrInet6{Port: int(ap.Port()), Addr: ap.Addr().As16()}
	}
	typ := unix.SOCK_STREAM
	if proto == "udp" {
		typ = unix.SOCK_DGRAM
	}
	fd, err := unix.Socket(family, typ|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("socket: %w", err)
	}
	f := os.NewFile(uintptr(fd), "standin "+ap.String()+"/"+proto)
	defer f.Close() // net's File* duplicate it
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1); err != nil {
		return nil, nil, fmt.Errorf("SO_REUSEADDR: %w", err)
	}
	if err := unix.Bind(fd, sa); err != nil {
		return nil, nil, fmt.Errorf("bind %s: %w", ap, err)
	}
	if proto == "udp" {
		pc, err := net.FilePacketConn(f)
		return nil, pc, err
	}
	if err := unix.Listen(fd, 128); err != nil {
		return nil, nil, fmt.Errorf("listen %s: %w", ap, err)
	}
	ln, err := net.FileListener(f)
	return ln, nil, err
}
