package ptrace

import (
	"encoding/binary"
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Addresses held here (issue 13): a replayed bind whose address a
// process outside the traced tree holds in this environment still gives
// the program a bound socket, on a free address, and the traced
// processes' connects and sends to the recorded address go to it.
//
//   - redirectBind, at the exit stop of a bind that ran to be overwritten
//     (the program sees the recorded success): when the live bind failed
//     with EADDRINUSE or EACCES, the thread binds again, to the same
//     address with port 0 (a unix socket: autobound to an abstract
//     name), and getsockname tells the address it got. The pair is kept
//     in session.addrs and reported in the run's RunResult.AddrRedirects.
//   - redirectDest, at the entry of every call that runs and passes a
//     destination (connect, sendto with an address, sendmsg's msg_name):
//     a destination the recorded bind accepts is rewritten to the live
//     address, in a copy below the thread's stack; the argument
//     registers are put back at the exit stop (restoreArgs), so the
//     program never sees them changed.
//   - unredirectReported, at the exit of a call that ran and reports an
//     address (getsockname, getpeername, accept, recvfrom, recvmsg's
//     msg_name): a live address of a redirect is shown as the recorded
//     one.
//
// With no redirect, none of this costs more than a length check.

// addrRedirect is one bind moved to a free address in this run.
type addrRedirect struct {
	asked    systable.Sockaddr // the address the program bound
	askedRaw []byte
	live     systable.Sockaddr // the address its socket got here
	liveRaw  []byte
	out      int // its index in session.result.AddrRedirects
}

// boundElsewhere reports whether a live bind's error says that the
// address is not free for us here, so that a free one can stand in.
func boundElsewhere(ret int64) bool {
	return ret == -int64(unix.EADDRINUSE) || ret == -int64(unix.EACCES)
}

// redirectBind is the exit stop of bind live, which the program is to
// see succeed as the recorded call did (d is Overwrite): where it failed because its address is taken
// here, the socket is bound to a free one. Needs t stopped at that exit
// with registers r.
func (s *session) redirectBind(t *task, r *regs, row *systable.Syscall, live *trace.Call, d Decision) error {
	rec := d.Rec
	if d.Verb != Overwrite || rec == nil || row.EffectsFor(live.Args)&systable.BindsAddress == 0 || rec.Ret != 0 || !boundElsewhere(live.Ret) {
		return nil
	}
	i := row.AddressArg(false)
	if i < 0 {
		return nil
	}
	m := live.MemOfDir(uint8(i), trace.PartWhole, trace.In)
	if m == nil {
		return nil
	}
	asked, ok := systable.DecodeSockaddr(m.Data)
	if !ok {
		return nil
	}
	var free []byte
	switch {
	case asked.IP.IsValid():
		free, _ = systable.WithPort(m.Data, 0)
	case asked.Family == systable.AFUnix:
		free = m.Data[:2] // only the family: the kernel picks an abstract name
	default:
		return nil
	}
	fd := live.Args[0]
	sc := newStackScratch(t.tid, r)
	addr, err := sc.put(free)
	if err != nil {
		return nil
	}
	ret, err := s.inject(t, r, nrBind, [6]uint64{fd, addr, uint64(len(free))})
	if err != nil {
		return ignoreGone(err)
	}
	if ret != 0 {
		s.warnOnce(fmt.Sprintf("bind %s: taken here, and binding a free address instead failed: %s",
			asked, unix.ErrnoName(unix.Errno(-ret))))
		return nil
	}
	got, err := s.localAddr(t, r, &sc, fd)
	if err != nil || got == nil {
		return err
	}
	liveSA, _ := systable.DecodeSockaddr(got)
	s.result.AddrRedirects = append(s.result.AddrRedirects, trace.AddrRedirect{
		Seq: rec.Seq, Proc: live.Proc, Thread: live.Thread,
		Recorded: asked.String(), Live: liveSA.String(), Errno: unix.ErrnoName(unix.Errno(-live.Ret)),
	})
	s.addrs = append(s.addrs, addrRedirect{asked: asked, askedRaw: append([]byte(nil), m.Data...),
		live: liveSA, liveRaw: got, out: len(s.result.AddrRedirects) - 1})
	return nil
}

// localAddr makes t call getsockname on fd and returns the address, nil
// when the call failed. Needs t stopped at an exit stop with registers
// r; sc hands out the space for the answer.
func (s *session) localAddr(t *task, r *regs, sc *stackScratch, fd uint64) ([]byte, error) {
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], sockaddrMax)
	buf, err := sc.put(make([]byte, sockaddrMax))
	if err != nil {
		return nil, nil
	}
	lenAddr, err := sc.put(n[:])
	if err != nil {
		return nil, nil
	}
	ret, err := s.inject(t, r, nrGetsockname, [6]uint64{fd, buf, lenAddr})
	if err != nil || ret != 0 {
		return nil, ignoreGone(err)
	}
	m := memReader{pid: t.tid}
	got, err := m.readU32(lenAddr)
	if err != nil {
		return nil, nil
	}
	b, err := m.read(buf, int(min(got, sockaddrMax)))
	if err != nil {
		return nil, nil
	}
	return b, nil
}

// liveDest returns the address to use instead of dest, a destination a
// traced call passes, and the redirect it goes by; nil when no redirect
// takes it. The newest redirect wins.
func (s *session) liveDest(raw []byte) ([]byte, *addrRedirect) {
	dest, ok := systable.DecodeSockaddr(raw)
	if !ok {
		return nil, nil
	}
	for k := len(s.addrs) - 1; k >= 0; k-- {
		rd := &s.addrs[k]
		if !rd.asked.Accepts(dest) {
			continue
		}
		if dest.IP.IsValid() {
			out, ok := systable.WithPort(raw, rd.live.IP.Port())
			if !ok {
				return nil, nil
			}
			return out, rd
		}
		return rd.liveRaw, rd
	}
	return nil, nil
}

// redirectDest is the entry of call c, which is about to run: a
// destination address that a redirected bind took in the recording is
// rewritten to the live one. c.Args keep the program's values;
// restoreArgs puts them back into the registers at the exit stop. Needs
// t stopped at c's entry with registers r.
func (s *session) redirectDest(t *task, r *regs, row *systable.Syscall, c *trace.Call) error {
	if len(s.addrs) == 0 {
		return nil
	}
	args := c.Args
	if row.EffectsFor(c.Args)&systable.ConnectsAddress != 0 {
		if !s.redirectAddrArg(t, r, row, c, &args) {
			return nil
		}
	} else if !s.redirectMsgName(t, r, row, c, &args) {
		return nil
	}
	setArgs(r, args)
	t.addrArgs = true
	return setRegs(t.tid, r)
}

// redirectAddrArg rewrites the address argument of connect or sendto
// (and its length) in args; false when it is not redirected.
func (s *session) redirectAddrArg(t *task, r *regs, row *systable.Syscall, c *trace.Call, args *[6]uint64) bool {
	i := row.AddressArg(false)
	if i < 0 || c.Args[i] == 0 || row.Args[i].Len.From != systable.LenArg {
		return false
	}
	lenArg := row.Args[i].Len.Arg
	raw, err := memReader{pid: t.tid}.read(c.Args[i], int(min(uint32(c.Args[lenArg]), sockaddrMax)))
	if err != nil {
		return false
	}
	sc := newStackScratch(t.tid, r)
	addr, n, ok := s.putLiveDest(&sc, raw)
	if !ok {
		return false
	}
	args[i], args[lenArg] = addr, n
	return true
}

// putLiveDest writes the live address that destination raw is
// redirected to below the thread's stack and counts the redirect; false
// when raw is not redirected.
func (s *session) putLiveDest(sc *stackScratch, raw []byte) (addr, n uint64, ok bool) {
	to, rd := s.liveDest(raw)
	if rd == nil {
		return 0, 0, false
	}
	addr, err := sc.put(to)
	if err != nil {
		return 0, 0, false
	}
	s.result.AddrRedirects[rd.out].Redirected++
	return addr, uint64(len(to)), true
}

// redirectMsgName rewrites the msg_name of a struct msghdr the call
// passes (sendmsg): the thread gets a copy of its msghdr pointing to the
// live address; false when it is not redirected.
func (s *session) redirectMsgName(t *task, r *regs, row *systable.Syscall, c *trace.Call, args *[6]uint64) bool {
	for i, a := range row.Args {
		if a.Kind != systable.InMsghdr || c.Args[i] == 0 {
			continue
		}
		m := memReader{pid: t.tid}
		hdr, err := m.read(c.Args[i], s.table.Msg().MsghdrSize)
		if err != nil {
			return false
		}
		nameLenAt := s.table.Msg().NameLen
		name, nameLen := binary.LittleEndian.Uint64(hdr[0:]), binary.LittleEndian.Uint32(hdr[nameLenAt:])
		if name == 0 || nameLen == 0 {
			return false
		}
		raw, err := m.read(name, int(min(nameLen, sockaddrMax)))
		if err != nil {
			return false
		}
		sc := newStackScratch(t.tid, r)
		toAddr, n, ok := s.putLiveDest(&sc, raw)
		if !ok {
			return false
		}
		binary.LittleEndian.PutUint64(hdr[0:], toAddr)
		binary.LittleEndian.PutUint32(hdr[nameLenAt:], uint32(n))
		hdrAddr, err := sc.put(hdr)
		if err != nil {
			return false
		}
		args[i] = hdrAddr
		return true
	}
	return false
}

// restoreArgs puts the program's argument registers back at the exit
// stop of a call redirectDest rewrote: the kernel keeps them across a
// call, and the program may rely on that.
func (s *session) restoreArgs(t *task, r *regs, c *trace.Call) error {
	if !t.addrArgs {
		return nil
	}
	t.addrArgs = false
	setArgs(r, c.Args)
	return setRegs(t.tid, r)
}

// recordedAddr returns what the program is to see instead of reported,
// an address the kernel reported to a call that ran: the recorded
// address of the redirect whose live address it is (the port of an
// inet address, the whole address of a unix one); nil when it is not
// one.
func (s *session) recordedAddr(reported []byte) []byte {
	a, ok := systable.DecodeSockaddr(reported)
	if !ok {
		return nil
	}
	for k := len(s.addrs) - 1; k >= 0; k-- {
		rd := &s.addrs[k]
		switch {
		case a.IP.IsValid() && rd.live.IP.IsValid():
			if a.IP.Port() != rd.live.IP.Port() ||
				!(a.IP.Addr().Unmap() == rd.live.IP.Addr().Unmap() || rd.live.IP.Addr().IsUnspecified()) {
				continue
			}
			out, _ := systable.WithPort(reported, rd.asked.IP.Port())
			return out
		case a.Family == systable.AFUnix && a.UnixName() != "" && a.UnixName() == rd.live.UnixName():
			return rd.askedRaw
		}
	}
	return nil
}

// unredirectReported is the exit stop of call c, which ran and
// succeeded: an address it reports that is the live address of a
// redirect is shown to the program as the recorded one. Inet addresses
// keep their length (only the port changes); a unix one is cut to the
// buffer's capacity at entry (readPtrCaps) and its length set as the
// kernel would. A msghdr's name (recvmsg) is rewritten for inet
// addresses only.
func (s *session) unredirectReported(t *task, row *systable.Syscall, c *trace.Call) {
	if len(s.addrs) == 0 || c.Ret < 0 {
		return
	}
	m := memReader{pid: t.tid}
	if i := row.AddressArg(true); i >= 0 && c.Args[i] != 0 {
		mem := c.MemOfDir(uint8(i), trace.PartWhole, trace.Out)
		if mem == nil {
			return
		}
		rec := s.recordedAddr(mem.Data)
		if rec == nil {
			return
		}
		a := row.Args[i]
		if len(rec) != len(mem.Data) {
			if a.Len.From != systable.LenArgPtr || t.replay.ptrCapOK&(1<<i) == 0 {
				return
			}
			var n [4]byte
			binary.LittleEndian.PutUint32(n[:], uint32(len(rec)))
			m.write(c.Args[a.Len.Arg], n[:])
			rec = rec[:min(uint64(len(rec)), t.replay.ptrCap[i])]
		}
		m.write(c.Args[i], rec)
		return
	}
	for i, a := range row.Args {
		if a.Kind != systable.OutMsghdr || c.Args[i] == 0 {
			continue
		}
		mem := c.MemOfDir(uint8(i), trace.PartName, trace.Out)
		if mem == nil {
			return
		}
		if rec := s.recordedAddr(mem.Data); rec != nil && len(rec) == len(mem.Data) {
			m.write(mem.Addr, rec)
		}
	}
}
