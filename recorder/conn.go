package recorder

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// serve runs one client's connection: its session, a writer that sends
// what the loop routes to it, and its requests.
func (s *Server) serve(c *net.UnixConn) {
	defer c.Close()
	cred, err := peerCred(c)
	if err != nil {
		s.log("client: %v", err)
		return
	}
	p, err := newPeer(int(cred.Pid), cred.Uid, cred.Gid)
	if err != nil {
		s.log("client pid %d: %v", cred.Pid, err)
		return
	}
	sess := newSession(p)
	if !s.do(func(r *router) { r.add(sess) }) {
		return
	}
	written := make(chan struct{})
	go func() {
		defer close(written)
		var batch [][]byte
		for {
			fs, ok := sess.q.popAll(batch[:0])
			if !ok {
				c.CloseWrite()
				return
			}
			// Everything queued, in one writev (a few, past the
			// kernel's iovec limit).
			bufs := net.Buffers(fs)
			_, err := bufs.WriteTo(c)
			clear(fs)
			batch = fs
			if err != nil {
				sess.q.close()
				c.Close()
				return
			}
		}
	}()
	err = s.requests(c, sess, p, int(cred.Pid))
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
		s.log("client pid %d: %v", cred.Pid, err)
	}
	s.do(func(r *router) { r.leave(sess) })
	sess.q.close()
	<-written
}

// requests reads the client's frames until it hangs up. A Follow's
// pidfd arrives as SCM_RIGHTS with its bytes.
func (s *Server) requests(c *net.UnixConn, sess *session, p *peer, clientPID int) error {
	fr := &fdReader{c: c}
	defer fr.closeAll()
	r := bufio.NewReader(fr)
	var buf []byte
	for {
		kind, payload, err := readFrame(r, buf)
		if err != nil {
			return err
		}
		buf = payload
		switch kind {
		case kindFollow:
			var req followRequest
			if err := json.Unmarshal(payload, &req); err != nil {
				return fmt.Errorf("follow request: %w", err)
			}
			fd, ok := fr.take()
			if !ok {
				sess.q.push(jsonFrame(kindAck, ack{Error: "follow request without a pidfd"}), 0)
				continue
			}
			a := s.follow(sess, p, fd, req)
			unix.Close(fd)
			sess.q.push(jsonFrame(kindAck, a), 0)
		case kindDrain:
			s.do(func(r *router) { r.drainFrom(sess) })
		default:
			return fmt.Errorf("unknown request %d", kind)
		}
	}
}

// follow answers one Follow.
func (s *Server) follow(sess *session, p *peer, pidfd int, req followRequest) ack {
	a := ack{RingSize: s.cfg.Probe.RingSize, MaxCapture: s.cfg.Probe.MaxCapture}
	if req.MaxCapture != s.cfg.Probe.MaxCapture {
		a.Error = fmt.Sprintf("this recorder captures up to %d bytes of each buffer, the recording asks for %d", s.cfg.Probe.MaxCapture, req.MaxCapture)
		return a
	}
	pid, err := pidfdPID(pidfd)
	if err != nil {
		a.Error = err.Error()
		return a
	}
	if err := p.mayStart(pid); err != nil {
		a.Error = err.Error()
		return a
	}
	var ferr error
	if !s.do(func(r *router) { ferr = r.follow(sess, pid) }) {
		ferr = errors.New("the recorder is stopping")
	}
	if ferr != nil {
		a.Error = ferr.Error()
		return a
	}
	s.log("following process %d", pid)
	return a
}

// peerCred is the connecting process's credentials (SO_PEERCRED), as
// the kernel recorded them at connect, in the recorder's namespaces.
func peerCred(c *net.UnixConn) (*unix.Ucred, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return nil, err
	}
	var cred *unix.Ucred
	var cerr error
	err = raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	})
	if err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("SO_PEERCRED: %w", err)
	}
	return cred, nil
}

// pidfdPID is the process a pidfd refers to, as this pid namespace
// numbers it (/proc/self/fdinfo: "Pid:"; -1 once it has exited).
func pidfdPID(fd int) (int, error) {
	b, err := os.ReadFile("/proc/self/fdinfo/" + strconv.Itoa(fd))
	if err != nil {
		return 0, fmt.Errorf("read the pidfd: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Pid:"); ok {
			pid, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || pid <= 0 {
				return 0, fmt.Errorf("the pidfd names no live process in the recorder's pid namespace (Pid: %s)", strings.TrimSpace(v))
			}
			return pid, nil
		}
	}
	return 0, errors.New("the descriptor passed is not a pidfd")
}

// fdReader reads a unix stream and keeps the descriptors that come with
// it, in order.
type fdReader struct {
	c   *net.UnixConn
	fds []int
}

func (f *fdReader) Read(p []byte) (int, error) {
	oob := make([]byte, unix.CmsgSpace(4*4))
	n, oobn, _, _, err := f.c.ReadMsgUnix(p, oob)
	if oobn > 0 {
		if msgs, perr := unix.ParseSocketControlMessage(oob[:oobn]); perr == nil {
			for _, m := range msgs {
				if fds, perr := unix.ParseUnixRights(&m); perr == nil {
					f.fds = append(f.fds, fds...)
				}
			}
		}
	}
	if n == 0 && err == nil {
		err = io.EOF
	}
	return n, err
}

// take returns the oldest descriptor received and not yet taken.
func (f *fdReader) take() (int, bool) {
	if len(f.fds) == 0 {
		return -1, false
	}
	fd := f.fds[0]
	f.fds = f.fds[1:]
	return fd, true
}

func (f *fdReader) closeAll() {
	for _, fd := range f.fds {
		unix.Close(fd)
	}
	f.fds = nil
}
