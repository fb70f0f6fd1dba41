package ptrace

import (
	"encoding/binary"
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// servedExec is a replayed exec (a row with ServesImage) being served:
// the thread runs the recorded image, from a memfd the Store fills, in
// place of whatever the live path names. It takes three stops:
//
//  1. the exec's entry: the call becomes memfd_create (serveExecEnter);
//  2. that call's exit: the Store fills the memfd, and the instruction
//     pointer is wound back over the syscall instruction with the
//     registers set for execveat(memfd, "", live argv, live envp,
//     AT_EMPTY_PATH), so that the thread makes the exec itself
//     (serveExecExit); for a "#!" script, whose recorded image is its
//     interpreter, the argv is the recorded interpreter, its argument
//     and the script's path, then the live argv[1:] (scriptArgs);
//  3. the execveat's entry, which the Replayer is not asked about again
//     (serveExecReentered), then its exec event, where the process's
//     image is named as recorded, and its exit (serveExecDone).
//
// Where anything of this fails, the live call runs instead (execLive),
// as it would have unreplayed, with a warning.
type servedExec struct {
	obj uint32 // the recorded image: a file object of the trace
	exe string // its path as recorded, for the exec event and the memfd's name
	// script is, for a "#!" script, what the kernel put in front of the
	// program's argv[1:] when it was recorded (interpreter, its argument,
	// the script's path); nil for any other image.
	script []string
	argv   uint64 // the live call's argv
	envp   uint64 // the live call's envp
	fd     int64  // the memfd in the process, once made; -1 before
	// mfdFlags are the memfd's flags: without MFD_EXEC where the kernel
	// refused it once.
	mfdFlags uint64
	// execing: the thread was sent back to make the execveat; live: to
	// make the live call instead.
	execing, live bool
	// held are signals that arrived while execing: delivered then, their
	// handler's frame would overwrite the argv below the stack, so they
	// are raised again once the exec is done (holdSignal).
	held []int
}

// holdSignal reports whether t, stopped to be delivered sig, is on its
// way back to a served execveat, and if so keeps sig for afterwards.
func (t *task) holdSignal(sig int) bool {
	img := t.replay.exec
	if t.live == nil || img == nil || !img.execing {
		return false
	}
	img.held = append(img.held, sig)
	return true
}

// raiseHeld raises the signals held while img was execing again, for
// whatever image t now runs.
func raiseHeld(t *task, img *servedExec) {
	for _, sig := range img.held {
		unix.Tgkill(t.proc.pid, t.tid, unix.Signal(sig))
	}
	img.held = nil
}

// maxMemfdName is the longest name memfd_create takes (249 bytes).
const maxMemfdName = 249

// servedImage returns how to serve the exec rec, a call of row the
// Replayer asked to replay, made live as c by thread tid (stopped at the
// call's entry); or nil, with a warning, when it cannot be served and
// must run live.
func (s *session) servedImage(tid int, row *systable.Syscall, c, rec *trace.Call) *servedExec {
	what := rec.Path
	if what == "" {
		what = "an image"
	}
	if s.cfg.Serve == nil {
		s.warnOnce(fmt.Sprintf("exec of %s runs what this machine has: no store of the trace's files was given", what))
		return nil
	}
	f, err := s.cfg.Serve.Servable(rec.Obj)
	if err != nil {
		s.warnOnce(fmt.Sprintf("exec of %s runs what this machine has: %v", what, err))
		return nil
	}
	argvArg, envpArg := row.ImageArgs()
	if argvArg < 0 || envpArg < 0 {
		return nil
	}
	m := rec.MemOf(uint8(argvArg), trace.PartStrings)
	if m == nil || m.Flag != 0 {
		s.warnOnce(fmt.Sprintf("exec of %s runs what this machine has: the trace lacks the argv it ran with", what))
		return nil
	}
	exe := f.Resolved
	if exe == "" {
		exe = f.Path
	}
	img := &servedExec{obj: f.ID, exe: exe, argv: c.Args[argvArg], envp: c.Args[envpArg], fd: -1}
	if live, err := readPointers(memReader{pid: tid}, img.argv); err == nil {
		img.script = scriptArgs(splitStrings(m.Data), execFn(row, rec), len(live))
	}
	return img
}

// execFn is the path the recorded exec rec was given (AT_EXECFN, which a
// script's interpreter is given as the script), or "".
func execFn(row *systable.Syscall, rec *trace.Call) string {
	for i, a := range row.Args {
		if a.Kind == systable.Path {
			if m := rec.MemOf(uint8(i), trace.PartWhole); m != nil {
				return trimNUL(m.Data)
			}
		}
	}
	return ""
}

// readPointers reads the NULL-terminated array of pointers at addr (an
// argv), without its NULL.
func readPointers(m memReader, addr uint64) ([]uint64, error) {
	var out []uint64
	for i := 0; i < maxStrings; i++ {
		p, err := m.readWord(addr + uint64(i)*8)
		if err != nil {
			return nil, err
		}
		if p == 0 {
			return out, nil
		}
		out = append(out, p)
	}
	return nil, fmt.Errorf("argv at %#x: more than %d entries", addr, maxStrings)
}

// execArgv returns the argv a served exec passes: the live call's own,
// or for a script the recorded interpreter's part written below the
// stack in front of the live argv[1:] (their strings stay where the
// program put them).
func (img *servedExec) execArgv(sc *stackScratch) (uint64, error) {
	if img.script == nil {
		return img.argv, nil
	}
	live, err := readPointers(memReader{pid: sc.pid}, img.argv)
	if err != nil {
		return 0, err
	}
	var ptrs []uint64
	for _, str := range img.script {
		addr, err := sc.putString(str)
		if err != nil {
			return 0, err
		}
		ptrs = append(ptrs, addr)
	}
	if len(live) > 1 {
		ptrs = append(ptrs, live[1:]...)
	}
	arr := make([]byte, 8*(len(ptrs)+1))
	for i, p := range ptrs {
		binary.LittleEndian.PutUint64(arr[8*i:], p)
	}
	return sc.put(arr)
}

// serveExecEnter turns the entering exec into memfd_create: the memfd
// that will hold the recorded image. t.replay.exec is set.
func (s *session) serveExecEnter(t *task, r *regs) error {
	img := t.replay.exec
	sc := newStackScratch(t.tid, r)
	addr := img.memfdName(&sc)
	flags := uint64(unix.MFD_CLOEXEC | unix.MFD_ALLOW_SEALING)
	if !s.noMFDExec {
		flags |= unix.MFD_EXEC // whatever vm.memfd_noexec says (serve_linux.go)
	}
	img.mfdFlags = flags
	replaceCall(r, nrMemfdCreate, [6]uint64{addr, flags})
	if err := setRegs(t.tid, r); err != nil {
		return err
	}
	return resumeSyscall(t.tid, 0)
}

// memfdName writes the memfd's name below the stack and returns its
// address: the recorded image's path, which /proc/PID/exe then shows
// ("/memfd:/usr/bin/helper (deleted)"); 0 where it cannot be written
// (memfd_create fails with EFAULT, and the exec runs live).
func (img *servedExec) memfdName(sc *stackScratch) uint64 {
	name := img.exe
	if len(name) > maxMemfdName {
		name = name[len(name)-maxMemfdName:]
	}
	addr, err := sc.putString(name)
	if err != nil {
		return 0
	}
	return addr
}

// serveExecExit is the exit stop of a call serveExecEnter or
// serveExecExit changed.
func (s *session) serveExecExit(t *task, r *regs) error {
	img := t.replay.exec
	if img.execing {
		return s.serveExecDone(t, r)
	}
	fd := sysRet(r)
	if fd < 0 && s.standInFailed(img.mfdFlags, fd) {
		// This kernel has no MFD_EXEC: once more without.
		img.mfdFlags &^= unix.MFD_EXEC
		sc := newStackScratch(t.tid, r)
		var err error
		if fd, err = s.inject(t, r, nrMemfdCreate, [6]uint64{img.memfdName(&sc), img.mfdFlags}); err != nil {
			return ignoreGone(err)
		}
	}
	if fd < 0 {
		s.warnOnce(fmt.Sprintf("exec of %s runs what this machine has: the process could not make a memfd for the recorded image: %v",
			img.exe, unix.Errno(-fd)))
		return s.execLive(t, r)
	}
	img.fd = fd
	if err := s.cfg.Serve.Fill(t.tid, int(fd), img.obj, true); err != nil {
		s.warnOnce(fmt.Sprintf("exec of %s runs what this machine has: %v", img.exe, err))
		return s.execLive(t, r)
	}
	sc := newStackScratch(t.tid, r)
	empty, err := sc.putString("")
	if err != nil {
		return s.execLive(t, r)
	}
	argv, err := img.execArgv(&sc)
	if err != nil {
		return s.execLive(t, r)
	}
	img.execing = true
	return s.remake(t, r, nrExecveat, [6]uint64{uint64(fd), empty, argv, img.envp, unix.AT_EMPTY_PATH})
}

// remake sends t, at an exit stop with registers r, back over its
// syscall instruction to make call nr with args, as a call of its own:
// its entry stop comes next (serveExecReentered).
func (s *session) remake(t *task, r *regs, nr int, args [6]uint64) error {
	setSyscall(r, nr, args)
	setInstructionPointer(r, instructionPointer(r)-syscallInsnLen)
	if err := setRegs(t.tid, r); err != nil {
		return err
	}
	t.inSyscall = false
	return s.resume(t, 0)
}

// execLive makes t make the live exec call after all, as if it had not
// been replayed: the memfd made for the image, if any, is closed first.
func (s *session) execLive(t *task, r *regs) error {
	img := t.replay.exec
	if img.fd >= 0 {
		if _, err := s.inject(t, r, nrClose, [6]uint64{uint64(img.fd)}); err != nil {
			return ignoreGone(err)
		}
		img.fd = -1
	}
	img.execing, img.live = false, true
	c := t.live
	return s.remake(t, r, int(c.Nr), c.Args)
}

// serveExecReentered is the entry stop of the call serveExecExit or
// execLive sent t back to make: the Replayer decided about it already.
func (s *session) serveExecReentered(t *task) error {
	if t.replay.exec.live {
		// It runs as an executed call: its exit stop tells the Replayer.
		t.dec.Verb = Execute
		t.replay = replayState{}
	}
	t.inSyscall = true
	t.exec = nil
	return resumeSyscall(t.tid, 0)
}

// serveExecDone is the exit stop of a served execveat.
func (s *session) serveExecDone(t *task, r *regs) error {
	img := t.replay.exec
	ret := sysRet(r)
	if ret < 0 {
		// The recorded image could not run here (the ELF interpreter it
		// names is missing here; vm.memfd_noexec forbids it): the live
		// call runs instead. The memfd is still open (a failed exec
		// closes nothing): execLive closes it.
		s.warnOnce(fmt.Sprintf("exec of %s runs what this machine has: the recorded image did not start here: %v",
			img.exe, unix.Errno(-ret)))
		raiseHeld(t, img) // the live call passes the program's own memory
		return s.execLive(t, r)
	}
	raiseHeld(t, img)
	c, d := t.live, t.dec
	t.live, t.dec, t.replay = nil, Decision{}, replayState{}
	t.exec = nil
	c.Exit = s.since()
	s.replayed(t, s.table.ByNr(int(c.Nr)), c, d.Rec, 0)
	return s.resume(t, 0)
}
