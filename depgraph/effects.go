package depgraph

import "github.com/envbisect/envbisect/systable"

// KeptEffects are the effect bits of a call that changes a file-system
// object: it creates a path (mkdir, an open with O_CREAT, rename's and
// link's target, symlink), removes one (unlink, rmdir, rename's source)
// or modifies a file's content or metadata (write, pwrite, writev,
// sendfile's and copy_file_range's output, an open with O_TRUNC,
// truncate, ftruncate, fallocate, chmod, chown, utimensat, setxattr).
// Replayed, such a call still runs: the program's effect is kept
// (RunsWhenReplayed).
const KeptEffects = systable.CreatesPath | systable.RemovesPath | systable.ModifiesFile

// ChangesObject reports whether a call with these argument registers
// has one of the KeptEffects by its row. Whether the object is a file is
// the graph's to say (RunsWhenReplayed): ModifiesFile on a socket
// (sendto, setsockopt), a pipe or a device changes no file.
func ChangesObject(row *systable.Syscall, args [6]uint64) bool {
	return !row.Unknown && row.EffectsFor(args)&KeptEffects != 0
}

// RunsWhenReplayed reports whether recorded call seq, when a plan
// replays it, still runs live (its effect is kept): it succeeded in the
// recording and changed a file-system object other than a device (it
// created, removed or modified a path, or modified the file behind the
// fd it wrote through; depgraph's model of the file system says which).
// Writes to pipes, sockets, the command's inherited stdout and stderr,
// devices under /dev and anonymous fds (timerfd_settime) are not kept
// effects: they stay replayed, as before. Package replay runs such a
// call and shows the program the recorded result; the closure makes
// what it depends on real (the open of the fd it writes through, its
// dirfd's open, the chdir its path resolves against, the calls that
// moved the offset it writes at). Calls that are not in the trace:
// false.
//
// A call that binds its socket or makes it listen (SetsUpServer) runs
// when replayed too, whether or not it succeeded in the recording: the
// closure makes the socket it acts on real.
func (g *Graph) RunsWhenReplayed(seq uint64) bool {
	i, ok := g.pos(seq)
	return ok && g.info[i].flags&(keepsEffect|setsUpServer) != 0
}

// RunsWhenReplayed is the plan's graph's: see Graph.RunsWhenReplayed.
func (p *Plan) RunsWhenReplayed(seq uint64) bool { return p.g.RunsWhenReplayed(seq) }

// SetsUpServer reports whether a call with these argument registers
// binds its socket or makes it listen, by its row (the BindsAddress
// effect, the SocketListens operation). Package replay runs such a call
// even replayed (its result overwritten), so that the program's traced
// clients have a server to reach; the plan's closure then makes what it
// depends on real, first of all the call that made its socket (socket,
// or whatever made that fd): replayed, that would be a memfd stand-in,
// and bind, listen, poll and accept would act on a memfd.
func SetsUpServer(row *systable.Syscall, args [6]uint64) bool {
	return !row.Unknown && (row.EffectsFor(args)&systable.BindsAddress != 0 || row.Socket == systable.SocketListens)
}

// keepEffect marks the call as one whose effect replay keeps, if it
// succeeded and changes an object by its row (KeptEffects). path is the
// object it changes ("" when the recorder could not resolve it); a device
// is none (its writes define nothing, see isDevice), but a creation
// always is, as before effects were kept.
func (x *callCtx) keepEffect(path string) {
	if !x.ok || x.eff&KeptEffects == 0 {
		return
	}
	if path != "" && isDevice(path) && x.eff&systable.CreatesPath == 0 {
		return
	}
	x.ci.flags |= keepsEffect
}
