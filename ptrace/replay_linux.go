package ptrace

import (
	"errors"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// replayState is what the exit stop of a call in a semi-replay run must
// do, decided at its entry.
type replayState struct {
	standIn bool // the call was replaced by memfd_create (Skip of an fd-making call)
	// mfdFlags are the stand-in's memfd_create flags: MFD_ALLOW_SEALING
	// when it is to be filled with the recorded file (serve_linux.go).
	mfdFlags uint64
	skipped  bool  // fallback mode: skipped at entry; the exit stop sets the result
	ret      int64 // the result the program sees, for skipped
	// ptrCap holds, for out-buffers sized by a value-result pointer
	// (socklen_t), the capacity the pointer held at entry; bit i of
	// ptrCapOK says argument i has one.
	ptrCap   [6]uint64
	ptrCapOK uint8
	// creating: the call (Overwrite) creates create.path; should it fail
	// live where the recording succeeded, the exit stop makes the object
	// in the run's scratch area (redirect_linux.go). moving: the call
	// (Execute) renames or links an object of the scratch area to
	// create.path, which is not there. pathArgs: redirectPaths changed
	// the argument registers, which the exit stop puts back.
	creating, moving, pathArgs bool
	create                     creation
	// exec: a replayed exec whose recorded image runs (serveexec_linux.go).
	exec *servedExec
}

// replayEnter is the entry of a call in a semi-replay run: r holds the
// thread's registers. The Replayer decides; a skipped call gets its
// recorded results here and never runs.
func (s *session) replayEnter(t *task, r *regs) error {
	if t.live != nil && t.replay.exec != nil {
		return s.serveExecReentered(t)
	}
	nr := sysNr(r)
	denied := t.denied
	t.denied = 0
	s.beginCall(t, false)
	c, row := s.newCall(t, r)
	s.seq++
	c.Seq = s.seq
	t.tseq++
	c.TSeq = t.tseq
	m := memReader{pid: t.tid}
	if !row.Unknown {
		s.cap.capturePaths(m, row, c) // what matching needs
	}
	s.callPaths(t, row, c)
	if !row.Unknown && strings.HasPrefix(c.Path, "socket:") {
		// What a call on a socket sends: the Replayer matches a request
		// of an echo protocol by it, its echoed fields left out. The
		// exit stop captures the call's memory anew.
		s.cap.capture(m, row, c, false)
	}
	d := s.cfg.Replayer.Enter(c)
	if d.Rec == nil || row.Unknown || d.Rec.Nr != uint32(nr) {
		d = Decision{Verb: Execute}
	}
	var img *servedExec
	if d.Verb == Skip && row.ServesImage {
		// Replayed, an exec runs the recorded image, where it can.
		if img = s.servedImage(t.tid, row, c, d.Rec); img == nil {
			d.Verb = Execute
		}
	}
	t.dec, t.live, t.replay = d, c, replayState{exec: img}
	if img != nil {
		return s.serveExecEnter(t, r)
	}
	if err := s.redirectEnter(t, r, row, c, d); err != nil {
		return err
	}
	if d.Verb == Execute || d.Verb == Overwrite {
		if denied != 0 {
			// Executed, the target's filter answers it (denied_linux.go).
			if err := denyCall(t, r, denied); err != nil {
				return err
			}
			c.Denied = true
		}
	}
	if d.Verb == Execute || d.Verb == Overwrite {
		if err := s.redirectDest(t, r, row, c); err != nil {
			return err
		}
	}
	if d.Verb == Execute && len(s.addrs) == 0 {
		return resumeSyscall(t.tid, 0)
	}
	s.readPtrCaps(t, row, c)
	if d.Verb != Skip {
		return resumeSyscall(t.tid, 0)
	}
	eff := row.EffectsFor(c.Args)
	if eff&systable.CreatesFD != 0 && d.Rec.Ret >= 0 {
		// The program will hold an fd: put a stand-in on its number.
		name := s.standInName(t, row, c, r)
		flags := s.standInFlags(row, c, d.Rec)
		replaceCall(r, nrMemfdCreate, [6]uint64{name, flags})
		t.replay.standIn, t.replay.mfdFlags = true, flags
		if err := setRegs(t.tid, r); err != nil {
			return err
		}
		return resumeSyscall(t.tid, 0)
	}
	ret := s.writeBack(t, row, c, d.Rec)
	skipCall(r, ret)
	if err := setRegs(t.tid, r); err != nil {
		return err
	}
	if !s.seccomp {
		// An entry stop: the kernel sets -ENOSYS at the exit, where the
		// result is set again.
		t.replay.skipped, t.replay.ret = true, ret
		return resumeSyscall(t.tid, 0)
	}
	// A seccomp stop: the kernel returns what rax holds; no exit stop.
	t.inSyscall = false
	s.replayed(t, row, c, d.Rec, ret)
	return resumeCont(t.tid, 0)
}

// replayExit is the exit stop of a call replayEnter let through.
func (s *session) replayExit(t *task, r *regs) error {
	if t.replay.exec != nil {
		return s.serveExecExit(t, r)
	}
	c, d, st := t.live, t.dec, t.replay
	t.live, t.dec = nil, Decision{}
	// t.replay stays until the call is done: writeBack and the address
	// redirects read the capacities taken at entry.
	defer func() { t.replay = replayState{} }()
	row := s.table.ByNr(int(c.Nr))
	if st.skipped {
		setRet(r, st.ret)
		if err := setRegs(t.tid, r); err != nil {
			return err
		}
		s.replayed(t, row, c, d.Rec, st.ret)
		return s.resume(t, 0)
	}
	c.Ret = sysRet(r)
	c.Exit = s.since()
	if err := s.restoreArgs(t, r, c); err != nil {
		return err
	}
	if st.standIn {
		switch {
		case c.Ret >= 0 && st.mfdFlags&unix.MFD_ALLOW_SEALING != 0:
			s.fillStandIn(t, c.Ret, d.Rec)
		case c.Ret < 0:
			s.standInFailed(st.mfdFlags, c.Ret) // placeFD makes another, without MFD_EXEC
		}
		fd, err := s.placeFD(t, r, c, d.Rec)
		if err != nil {
			return err
		}
		s.writeBack(t, row, c, d.Rec)
		setRet(r, fd)
		if err := setRegs(t.tid, r); err != nil {
			return err
		}
		s.replayed(t, row, c, d.Rec, fd)
		return s.resume(t, 0)
	}
	// It ran: the live results, as a recording would hold them.
	c.Mem = c.Mem[:0]
	if t.exec != nil {
		c.Mem, t.exec = t.exec.mems(row), nil
	} else if !row.Unknown {
		s.cap.capture(memReader{pid: t.tid}, row, c, true)
	}
	if err := s.redirectExit(t, r, row, c, d, st); err != nil {
		return err
	}
	s.metStandIn(t, row, c, d)
	s.cfg.Replayer.Exit(c, d)
	if d.Verb != Overwrite {
		s.unredirectReported(t, row, c)
		s.applyEffects(t, row, c, "")
		return s.resume(t, 0)
	}
	made := c // the call whose fd the program is to hold
	if st.creating {
		// It could not create here: the same call makes it in the
		// scratch area, and an fd it made is the program's.
		got, ok, err := s.materialize(t, r, row, c, d.Rec, st.create)
		if err != nil {
			return err
		}
		if ok {
			lc := *c
			lc.Ret = got
			made = &lc
		}
	}
	ret := s.writeBack(t, row, c, d.Rec)
	if err := s.redirectBind(t, r, row, c, d); err != nil {
		return err
	}
	if row.EffectsFor(c.Args)&systable.CreatesFD != 0 {
		fd, err := s.placeFD(t, r, made, d.Rec)
		if err != nil {
			return err
		}
		ret = fd
	}
	setRet(r, ret)
	if err := setRegs(t.tid, r); err != nil {
		return err
	}
	s.replayed(t, row, c, d.Rec, ret)
	if c.Ret >= 0 && row.EffectsFor(c.Args)&systable.ChangesCwd != 0 {
		// It moved for real: relative paths resolve where the kernel
		// resolves them, and a redirect is keyed by this environment's
		// paths, not the recording's.
		s.followLiveCwd(t)
	}
	return s.resume(t, 0)
}

// replayed keeps the tracer's tables as the program sees them after a
// call whose results came from rec: with rec's fd number and path.
func (s *session) replayed(t *task, row *systable.Syscall, live, rec *trace.Call, ret int64) {
	pv := *live
	pv.Ret = ret
	pv.Mem = rec.Mem
	s.applyEffects(t, row, &pv, rec.Path)
}

// placeFD makes the kernel's fd table agree with the result the program
// will see, rec's: live is the call as it ran (an fd-making call, or the
// memfd_create that stood in for it). It returns the fd number the
// program is to see: rec's, or, when that number is taken already (two
// threads opened files in another order than recorded, and an executed
// call holds the recorded number), or when other threads share the fd
// table, the live one: the program then holds
// another number than recorded, which matching does not mind (it keys
// calls by path), and no open file of the program is ever closed under
// it.
func (s *session) placeFD(t *task, r *regs, live, rec *trace.Call) (int64, error) {
	row := s.table.ByNr(int(rec.Nr))
	cloexec := row.AsksCloexec(live.Args)
	got := live.Ret
	switch {
	case rec.Ret < 0 && got >= 0:
		// The program sees a failure: the fd it does not know of goes.
		_, err := s.inject(t, r, nrClose, [6]uint64{uint64(got)})
		return rec.Ret, ignoreGone(err)
	case rec.Ret < 0:
		return rec.Ret, nil
	case got < 0:
		// The program holds an fd the live call did not make: a stand-in,
		// holding the recorded file where the trace keeps it.
		fd, err := s.injectStandIn(t, r, live, rec)
		if err != nil {
			return rec.Ret, ignoreGone(err)
		}
		if fd < 0 {
			s.warnOnce("could not create a stand-in fd in a replayed process: later calls on it may fail with EBADF")
			return rec.Ret, nil
		}
		got = fd
	}
	if got == rec.Ret {
		return got, nil
	}
	if t.proc.live > 1 || launch.ProcFD(t.proc.pid, int32(rec.Ret)) != "" {
		// Taken, or other threads share the table: they run while this
		// one is stopped, and one could be making an fd on that very
		// number; dup3 would close it under them.
		return got, nil
	}
	// Move it to the number the program believes in.
	flags := uint64(0)
	if cloexec {
		flags = unix.O_CLOEXEC
	}
	if _, err := s.inject(t, r, nrDup3, [6]uint64{uint64(got), uint64(rec.Ret), flags}); err != nil {
		return got, ignoreGone(err)
	}
	_, err := s.inject(t, r, nrClose, [6]uint64{uint64(got)})
	return rec.Ret, ignoreGone(err)
}

// ignoreGone treats a thread that died during an injection as done: the
// loop has already seen it go.
func ignoreGone(err error) error {
	if errors.Is(err, unix.ESRCH) {
		return nil
	}
	return err
}

// standInNameText names stand-in memfds ("/memfd:envbisect-stand-in" in
// /proc/PID/fd).
const standInNameText = "envbisect-stand-in\x00"

// standInName returns the address of a NUL-terminated name for a
// stand-in memfd: the call's own path when it has a short one (the
// memfd then shows what it stands in for), else a name written below
// the stack's red zone.
func (s *session) standInName(t *task, row *systable.Syscall, c *trace.Call, r *regs) uint64 {
	for i, a := range row.Args {
		if a.Kind != systable.Path || c.Args[i] == 0 {
			continue
		}
		if m := c.MemOf(uint8(i), trace.PartWhole); m != nil && m.Flag == 0 && len(m.Data) < 200 {
			return c.Args[i]
		}
	}
	sc := newStackScratch(t.tid, r)
	addr, err := sc.put([]byte(standInNameText))
	if err != nil {
		return 0 // memfd_create fails with EFAULT: the fd stays missing
	}
	return addr
}

// readPtrCaps reads, at a call's entry, the capacities that value-result
// pointers hold (the socklen_t of accept, getsockname, recvfrom): at the
// exit they hold the live lengths instead.
func (s *session) readPtrCaps(t *task, row *systable.Syscall, c *trace.Call) {
	m := memReader{pid: t.tid}
	for i, a := range row.Args {
		if a.Len.From != systable.LenArgPtr || (a.Kind != systable.OutBuf && a.Kind != systable.InOutBuf) {
			continue
		}
		p := c.Args[a.Len.Arg]
		if p == 0 {
			continue
		}
		if v, err := m.readU32(p); err == nil {
			t.replay.ptrCap[i] = uint64(v)
			t.replay.ptrCapOK |= 1 << i
		}
	}
}

func (s *session) warnOnce(msg string) {
	if s.warned == nil {
		s.warned = make(map[string]bool)
	}
	if !s.warned[msg] {
		s.warned[msg] = true
		s.warn(msg)
	}
}
