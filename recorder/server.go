package recorder

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/envbisect/envbisect/bpf"
)

// DefaultSocket is where the recorder listens unless told otherwise, and
// where record looks for it.
const DefaultSocket = "/run/envbisect/recorder.sock"

// Config configures a Server.
type Config struct {
	// Socket is the unix socket's path; its directory is made (0755)
	// when missing. An existing socket there is replaced only when
	// nothing answers on it.
	Socket string
	// GID, when >= 0, is the group the socket belongs to: its members
	// may record through it (mode 0660). -1: root only (0600).
	GID int
	// Probe is how the programs are loaded (bpf.DescribeTable fills the
	// syscall descriptions); its Filter is always FilterTree.
	Probe bpf.Options
	// Log, when set, hears what the recorder does (one line each).
	Log func(string)
}

// Server is a resident recorder: the programs loaded once, one reader of
// their ring, and the sessions it passes records on to.
type Server struct {
	cfg   Config
	probe *bpf.Probe
	ln    *net.UnixListener
	poll  time.Duration

	ctl      chan func(*router)
	loopDone chan struct{}
	conns    sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
}

// Start loads and attaches the programs, then listens on cfg.Socket.
func Start(cfg Config) (*Server, error) {
	if cfg.Socket == "" {
		return nil, errors.New("recorder: no socket path")
	}
	cfg.Probe.Filter = bpf.Filter{Kind: bpf.FilterTree}
	probe, err := bpf.Load(cfg.Probe)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, probe: probe, poll: cfg.Probe.Poll, ctl: make(chan func(*router), 64), loopDone: make(chan struct{})}
	if s.poll <= 0 {
		s.poll = bpf.DefaultPoll
	}
	if s.cfg.Probe.MaxCapture == 0 {
		s.cfg.Probe.MaxCapture = bpf.DefaultMaxCapture
	}
	if s.cfg.Probe.RingSize == 0 {
		s.cfg.Probe.RingSize = bpf.DefaultRingSize(runtime.NumCPU())
	}
	if err := s.listen(); err != nil {
		probe.Close()
		return nil, err
	}
	go s.loop()
	go s.accept()
	return s, nil
}

// ProgramIDs returns the kernel's ids of the recorder's programs.
func (s *Server) ProgramIDs() ([]uint32, error) { return s.probe.ProgramIDs() }

// MaxCapture is the capture limit the programs were loaded with.
func (s *Server) MaxCapture() uint32 { return s.cfg.Probe.MaxCapture }

// listen makes the socket, root-owned, 0600 or 0660 with cfg.GID.
func (s *Server) listen() error {
	path := s.cfg.Socket
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("recorder: make the socket's directory: %w", err)
	}
	if _, err := os.Lstat(path); err == nil {
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return fmt.Errorf("recorder: a recorder already answers on %s", path)
		}
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("recorder: remove the stale socket %s: %w", path, err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return fmt.Errorf("recorder: listen on %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(true)
	mode := os.FileMode(0o600)
	if s.cfg.GID >= 0 {
		mode = 0o660
		if err := os.Chown(path, 0, s.cfg.GID); err != nil {
			ln.Close()
			return fmt.Errorf("recorder: give %s to group %d: %w", path, s.cfg.GID, err)
		}
	}
	if err := os.Chmod(path, mode); err != nil {
		ln.Close()
		return fmt.Errorf("recorder: chmod %s: %w", path, err)
	}
	s.ln = ln
	return nil
}

func (s *Server) log(format string, args ...any) {
	if s.cfg.Log != nil {
		s.cfg.Log(fmt.Sprintf(format, args...))
	}
}

// accept serves each connection in its own goroutine until the listener
// closes.
func (s *Server) accept() {
	for {
		c, err := s.ln.AcceptUnix()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				s.log("accept: %v", err)
			}
			return
		}
		s.conns.Add(1)
		go func() {
			defer s.conns.Done()
			s.serve(c)
		}()
	}
}

// do runs f in the loop, which owns the routing state, and waits for it.
// false: the loop has ended.
func (s *Server) do(f func(*router)) bool {
	done := make(chan struct{})
	select {
	case s.ctl <- func(r *router) { f(r); close(done) }:
	case <-s.loopDone:
		return false
	}
	// The loop is waiting on the ring (up to the poll interval): have
	// it look at its requests now.
	if err := s.probe.Wake(); err != nil {
		s.log("%v", err)
	}
	select {
	case <-done:
		return true
	case <-s.loopDone:
		return false
	}
}

// loop reads the ring and routes each record to its session; between
// reads it runs what the sessions ask (follow, drain, leave). A request
// wakes the read waiting on the ring (do: bpf.Probe.Wake), so it is run
// at once, not at the end of the poll interval; a read that finds the
// ring empty answers the drains asked before it (a drain asked with the
// ring empty is answered at once: drainFrom).
func (s *Server) loop() {
	defer close(s.loopDone)
	r := newRouter(s.probe, s.log)
	var buf []byte
	for {
		for more := true; more; {
			select {
			case f := <-s.ctl:
				f(r)
			default:
				more = false
			}
		}
		if r.stopping {
			// One last pass over what the ring holds, then every
			// session ends.
			s.probe.SetDeadline(time.Now())
			for {
				raw, err := s.probe.ReadRaw(buf[:0])
				if errors.Is(err, bpf.ErrWoken) {
					continue // a late request's wake: the ring is not read to its end yet
				}
				if err != nil {
					break
				}
				buf = raw
				r.route(raw)
			}
			r.endAll()
			return
		}
		s.probe.SetDeadline(time.Now().Add(s.poll))
		raw, err := s.probe.ReadRaw(buf[:0])
		switch {
		case err == nil:
			buf = raw
			r.route(raw)
		case errors.Is(err, os.ErrDeadlineExceeded):
			r.endDrains()
		case errors.Is(err, bpf.ErrWoken):
			// Requests wait: the ring was read up to now.
		case errors.Is(err, os.ErrClosed):
			r.endAll()
			return
		default:
			s.log("read the ring: %v", err)
		}
	}
}

// Close stops the recorder: no new connection; every session gets what
// the ring still holds for it and its end; the programs are detached and
// unloaded, the socket removed. Clients still recording see their
// stream end (their recording fails: the recorder stopped).
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		var errs []error
		errs = append(errs, s.ln.Close()) // removes the socket
		s.do(func(r *router) { r.stopping = true })
		<-s.loopDone
		waited := make(chan struct{})
		go func() { s.conns.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-time.After(5 * time.Second):
			s.log("some clients did not take their last records within 5s")
		}
		ids, idErr := s.probe.ProgramIDs()
		errs = append(errs, s.probe.Close())
		if idErr == nil {
			errs = append(errs, waitUnloaded(ids))
		}
		if err := errors.Join(errs...); err != nil {
			s.closeErr = fmt.Errorf("recorder: stop: %w", err)
		}
	})
	return s.closeErr
}

// waitUnloaded waits until the kernel has freed the programs (it does so
// after a grace period, not at Close), so that a recorder that stopped
// has nothing left loaded; at most 10 s.
func waitUnloaded(ids []uint32) error {
	limit := time.Now().Add(10 * time.Second)
	for _, id := range ids {
		for bpf.ProgramLoaded(id) {
			if time.Now().After(limit) {
				return fmt.Errorf("program %d is still loaded 10 s after it was closed", id)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return nil
}
