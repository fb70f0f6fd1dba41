package depgraph

import (
	"fmt"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// useFDs adds the edges of the fds the call passes: fd arguments, a dirfd
// its relative path resolves against, the fds in a pollfd array or an
// fd_set.
func (b *builder) useFDs(x *callCtx) {
	row, c := x.row, x.c
	first := true
	anonMap := x.eff&systable.MapsMemory != 0 && row.MapsAnonymous(c.Args)
	for i, a := range row.Args {
		switch {
		case a.Kind == systable.FD:
			switch {
			case x.eff&systable.ClosesFDRange != 0, anonMap:
				continue
			case x.eff&systable.DupsFD != 0 && !first:
				continue // dup2's and dup3's newfd is where the copy goes, not a use
			}
			first = false
			b.useFD(x, i, fdArg(c, i), true)
		case a.Kind == systable.DirFD:
			if fd := fdArg(c, i); fd != atFDCWD && dirfdUsed(row, c, i) {
				b.useFD(x, i, fd, true)
			}
		case systable.StructOf(a.Struct).Is == systable.StructPollfd:
			if m := c.MemOfDir(uint8(i), trace.PartWhole, trace.In); m != nil {
				st := systable.StructOf(a.Struct)
				fd := st.Field("fd")
				for k := 0; k+st.Size <= len(m.Data); k += st.Size {
					b.useFD(x, i, int32(fd.Int(m.Data[k:])), false)
				}
			}
		case systable.StructOf(a.Struct).Is == systable.StructFdSet:
			if m := c.MemOfDir(uint8(i), trace.PartWhole, trace.In); m != nil {
				for k, by := range m.Data {
					for bit := 0; bit < 8; bit++ {
						if by&(1<<bit) != 0 {
							b.useFD(x, i, int32(k*8+bit), false)
						}
					}
				}
			}
		}
	}
}

// dirfdNamesBelow reports whether the DirFD argument i is the base of a
// relative path after it (then the call needs the real directory), not
// of an empty one that makes the call act on the fd itself.
func dirfdNamesBelow(c *trace.Call, i int) bool {
	return i+1 < len(c.Args) && pathArgForm(c, i+1) != formEmpty
}

// dirfdUsed reports whether the DirFD argument i is the base of the path
// after it: the path is relative, empty or NULL.
func dirfdUsed(row *systable.Syscall, c *trace.Call, i int) bool {
	for j := i + 1; j < len(row.Args); j++ {
		if row.Args[j].Kind == systable.Path {
			f := pathArgForm(c, j)
			return f == formRelative || f == formEmpty
		}
	}
	return false
}

// useFD adds the edges of one fd the call passes: to the call that put
// the description on that number, to the last change of the
// description's state, and for calls that read or write at the current
// offset to the last call that moved it. A call on a file also depends on
// the last modification of the file's content after the open. full is
// false for fds the call only waits on (poll, select): they need the fd
// and its state, not its offset or content.
func (b *builder) useFD(x *callCtx, arg int, fd int32, full bool) {
	if fd < 0 {
		return
	}
	s, ok := x.p.fds.Get(fd)
	if !ok {
		if x.c.Errno() == int(unix.EBADF) {
			return
		}
		s = b.inherit(x.p, fd)
	}
	d := s.d
	if d.res.Kind == Inherited && d.res.Path == "" && len(x.used) == 0 && x.c.Path != "" &&
		(!x.row.HasPath() || x.row.Args[arg].Kind == systable.DirFD) {
		d.res.Path = x.c.Path // the recorder names the first fd of a call that names no path
	}
	x.used = append(x.used, usedFD{arg: arg, fd: fd, s: s})
	x.acts(d.res)
	// A call that needs only the file's content is served by a stand-in
	// holding it: its fd, the description's state and the offset as the
	// open left them (a fresh stand-in's offset is 0 too).
	content := full && x.row.Args[arg].ContentOnly && (x.row.Args[arg].Kind != systable.DirFD || !dirfdNamesBelow(x.c, arg)) &&
		!x.row.MapsSharedWritable(x.c.Args)
	b.depOn(x, s.def, ByFD, d.res, content)
	if x.eff&systable.ClosesFD != 0 {
		return
	}
	b.depOn(x, d.state, ByState, d.res, content)
	if !full {
		return
	}
	if x.row.Effects&systable.MovesOffset != 0 && !x.row.SeeksAbsolute(x.c.Args) {
		b.depOn(x, d.pos, ByPosition, d.res, content) // lseek(SEEK_SET) sets the offset whatever it was
	}
	if d.path != "" {
		if n := b.paths[d.path]; n != nil {
			if n.def > d.created {
				b.dep(x, n.def, ByContent, n.res)
			}
			if x.row.Effects&systable.ActsOnDirectory != 0 {
				n.dir = true
				if n.entries > d.created {
					b.dep(x, n.entries, ByContent, n.res)
				}
			}
		}
	}
}

// InheritedName is the name of the inherited fd fd: "stdin", "stdout",
// "stderr", or "fd 5". A Resource of kind Inherited starts with it.
func InheritedName(fd int32) string {
	if fd >= 0 && fd <= 2 {
		return [...]string{"stdin", "stdout", "stderr"}[fd]
	}
	return fmt.Sprintf("fd %d", fd)
}

// inherit makes the entry of an fd that a process has without the trace
// showing where it came from: the command's stdin, stdout and stderr, or
// fds its invoker left open. Such fds are the command's input. Every
// process descends from the first, so an fd number the trace never shows
// being made is the same inherited fd in all of them.
func (b *builder) inherit(p *proc, fd int32) slot {
	d, ok := b.inherited[fd]
	if !ok {
		r := b.newResource(Inherited, InheritedName(fd), 0)
		r.Class, r.FD = Input, fd
		d = &desc{res: r}
		b.inherited[fd] = d
		b.descs[r.ID] = d
	}
	s := slot{d: d}
	p.fds.Open(fd, s, false)
	return s
}

// defineFDs applies what a successful call does to fds and descriptions:
// new fds, copies, offsets, states, file contents, close-on-exec flags.
func (b *builder) defineFDs(x *callCtx) {
	row, c, eff := x.row, x.c, x.eff
	for k, u := range x.used {
		d := u.s.d
		if row.Effects&systable.MovesOffset != 0 {
			d.pos = x.seq
		}
		if k == 0 && b.changesState(x, d) {
			d.state = x.seq
		}
		if eff&systable.ModifiesFile != 0 && d.path != "" && !isDevice(d.path) && writesThrough(x, k) {
			b.definePath(x.seq, d.path, false)
			x.keepEffect(d.path)
		}
	}
	if len(x.used) > 0 {
		if changes, cloexec := setsCloexec(row, c); changes {
			u := x.used[0]
			if s, ok := x.p.fds.Get(u.fd); ok && s.d == u.s.d {
				x.p.fds.SetCloexec(u.fd, cloexec)
			}
		}
	}
	if len(x.used) >= 2 && row.AddsWatch(c.Args) {
		x.used[0].s.d.watched = append(x.used[0].s.d.watched, x.used[1].s.d)
	}
	switch {
	case eff&systable.DupsFD != 0 && len(x.used) > 0:
		x.p.fds.Dup(x.used[0].fd, int32(c.Ret), slot{d: x.used[0].s.d, def: x.seq}, makesCloexec(row, c))
	case eff&systable.CreatesFD != 0:
		nfd := int32(c.Ret)
		if len(x.used) > 0 && x.used[0].fd == nfd {
			return // signalfd(fd, ...) changes fd's mask and returns it
		}
		d := b.newDesc(x)
		x.created = d
		x.p.fds.Open(nfd, slot{d: d, def: x.seq}, makesCloexec(row, c))
	case eff&systable.CreatesFDPair != 0:
		b.newPair(x)
	}
}

// writesThrough reports whether the call writes the file behind its k-th
// fd: the only fd, or the one whose argument is named as the output of a
// call with two (sendfile's out_fd, splice's fd_out).
func writesThrough(x *callCtx, k int) bool {
	if len(x.used) == 1 {
		return true
	}
	return x.row.Args[x.used[k].arg].WrittenFD
}

// isFcntl reports whether row is fcntl's: its command decides whether it
// changes the description.
func isFcntl(row *systable.Syscall) bool {
	_, from, ok := row.RequestArg()
	return ok && from == systable.LenFcntl
}

// changesState reports whether the call changes the state of d, the
// description behind its first fd.
func (b *builder) changesState(x *callCtx, d *desc) bool {
	switch {
	case x.eff&systable.BindsAddress != 0, x.row.Effects&systable.ConnectsAddress != 0, x.row.Effects&systable.ChangesFDState != 0:
		return true
	case x.eff&systable.ChangesFDFlags != 0 || isFcntl(x.row):
		return setsDescState(x.row, x.c)
	case x.eff&systable.ModifiesFile != 0 && x.row.Effects&systable.MovesOffset == 0:
		// setsockopt, shutdown, timerfd_settime, a tty's settings: a
		// description without file content to modify changes state.
		return d.path == "" || isDevice(d.path)
	}
	return false
}

// newDesc makes the description a successful fd-making call created.
func (b *builder) newDesc(x *callCtx) *desc {
	row, c := x.row, x.c
	d := &desc{created: x.seq, state: x.seq, pos: x.seq}
	switch {
	case x.eff&systable.AcceptsConn != 0:
		d.res = b.newResource(Socket, fmt.Sprintf("accepted socket (#%d)", x.seq), x.seq)
		d.sock = &sockState{accepted: true}
		if len(x.used) > 0 {
			if l := x.used[0].s.d; l.sock != nil {
				d.sock.listener = l
				d.sock.family, d.sock.typ, d.sock.local = l.sock.family, l.sock.typ, l.sock.local
			}
		}
		d.sock.peer = decodeSockaddr(sockaddrMem(row, c, trace.Out))
		b.sockets = append(b.sockets, d)
	case row.Made == systable.MadeSocket:
		d.res = b.newResource(Socket, fmt.Sprintf("socket (#%d)", x.seq), x.seq)
		d.sock = &sockState{family: arg(row, c, 0), typ: arg(row, c, 1) & 0xf, protocol: int64(int32(arg(row, c, 2)))}
		b.sockets = append(b.sockets, d)
	case row.Made == systable.MadeEpoll:
		d.res = b.newResource(Epoll, fmt.Sprintf("epoll (#%d)", x.seq), x.seq)
		b.epolls = append(b.epolls, d)
	case len(x.names) > 0:
		// The path's string is its node's: a third of a million opens
		// of one file hold one string, not one each.
		n := b.pathNode(x.names[0])
		d.path = n.res.Path
		d.res = b.newResource(File, "", x.seq) // named when asked (Resource.Name)
		d.res.Path = d.path
		if n.fifo {
			d.res.Class = Internal
		}
		if row.OpensDirectory(c.Args) {
			b.pathNode(d.path).dir = true
		}
	default:
		// What the object is comes from the row; a row that does not say
		// is taken as environment.
		name, class := row.Name, Environment
		if o := row.Makes; o != nil {
			name = o.Kind
			if !o.External {
				class = Internal
			}
		}
		object := name
		if c.Path != "" {
			name += " " + c.Path
		}
		d.res = b.newResource(AnonFD, fmt.Sprintf("%s (#%d)", name, x.seq), x.seq)
		d.res.Class, d.res.setMore().object = class, object
	}
	if d.res.Kind != File {
		// A file's desc is read by no one once its fds are closed (what
		// finish reads of descs is of sockets and mappings): kept here,
		// a third of a million opens held 36 MB until the graph was built.
		b.descs[d.res.ID] = d
	}
	return d
}

// newPair makes the two ends of a pipe or socketpair, whose fds the call
// wrote into its int[2] argument.
func (b *builder) newPair(x *callCtx) {
	row, c := x.row, x.c
	var m *trace.Mem
	for i, a := range row.Args {
		if systable.StructOf(a.Struct).Is == systable.StructFDPair {
			m = c.MemOfDir(uint8(i), trace.PartWhole, trace.Out)
		}
	}
	pair := systable.StructOf("int[2]")
	if m == nil || len(m.Data) < pair.Size {
		return
	}
	kind, word := Pipe, "pipe"
	if row.Made == systable.MadeSocketPair {
		kind, word = SocketPair, "socketpair"
	}
	name := fmt.Sprintf("%s (#%d)", word, x.seq)
	if c.Path != "" {
		name = fmt.Sprintf("%s %s (#%d)", word, c.Path, x.seq)
		if kind == Pipe && strings.HasPrefix(c.Path, "pipe:") {
			name = fmt.Sprintf("%s (#%d)", c.Path, x.seq)
		}
	}
	r := b.newResource(kind, name, x.seq)
	r.Class = Internal
	cloexec := makesCloexec(row, c)
	for k := 0; k < 2; k++ {
		d := &desc{res: r, created: x.seq, state: x.seq, pos: x.seq}
		if k == 0 {
			x.created = d
			b.descs[r.ID] = d
		}
		x.p.fds.Open(int32(pair.Fields[k].Int(m.Data)), slot{d: d, def: x.seq}, cloexec)
	}
}

// closeFDs applies close and close_range. close releases the fd even when
// it reports an error other than EBADF.
func (b *builder) closeFDs(x *callCtx) {
	switch {
	case x.eff&systable.ClosesFD != 0 && len(x.used) > 0 && !x.c.NoReturn && x.c.Errno() != int(unix.EBADF):
		if s, ok := x.p.fds.Get(x.used[0].fd); ok && s.d == x.used[0].s.d {
			x.p.fds.Close(x.used[0].fd)
		}
	case x.eff&systable.ClosesFDRange != 0 && x.ok:
		first, last := uint32(x.c.Args[0]), uint32(x.c.Args[1])
		x.p.fds = x.p.fds.CloseRange(first, last, arg(x.row, x.c, 2))
	}
}
