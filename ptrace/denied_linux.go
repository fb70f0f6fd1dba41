package ptrace

import "github.com/envbisect/envbisect/launch"

// Calls the target's seccomp filter denies.
//
// A container's filter answers some calls with an errno
// (SECCOMP_RET_ERRNO), and that action outranks our SECCOMP_RET_TRACE:
// installed as they are, such calls would never stop, and the trace
// would not show them. The helper installs the filters rewritten instead
// (tracedPrograms): a denied call stops with deniedTag and the errno in
// its event message. Here the tracer does what the filter would have
// done, skips the call and returns -errno, and records the call with
// that result like any other; in a semi-replay run the Replayer decides
// about it like any other, and executing it means denying it.

// deniedBy returns the errno the target's filter denies the call t is
// entering with, or 0 when our own filter stopped it. Must be called at
// a seccomp stop, on the tracer thread.
func (s *session) deniedBy(t *task) (int, error) {
	msg, err := eventMsg(t.tid)
	if err != nil {
		return 0, err
	}
	return launch.DeniedErrno(msg), nil
}

// deniedStop handles the seccomp stop of a call the target's filter
// denies with errno.
func (s *session) deniedStop(t *task, errno int) error {
	var r regs
	if err := getRegs(t.tid, &r); err != nil {
		return err
	}
	if t.hidden() || !t.proc.execd {
		// The helper's own calls, before the exec: denied, as under runc.
		if err := denyCall(t, &r, errno); err != nil {
			return err
		}
		return resumeCont(t.tid, 0)
	}
	if s.cfg.Replayer != nil {
		t.denied = errno
		return s.replayEnter(t, &r)
	}
	s.beginCall(t, false)
	c, row := s.newCall(t, &r)
	t.inSyscall = false
	if err := denyCall(t, &r, errno); err != nil {
		return err
	}
	c.Ret = -int64(errno)
	c.Denied = true
	c.Exit = s.since()
	if !row.Unknown {
		s.cap.capture(memReader{pid: t.tid}, row, c, false)
	}
	s.account(t, row, c)
	s.finish(t, c)
	return resumeCont(t.tid, 0)
}

// denyCall makes the call t is entering not run and return -errno.
func denyCall(t *task, r *regs, errno int) error {
	skipCall(r, -int64(errno))
	return setRegs(t.tid, r)
}
