// Package sandbox gives one run of a command a throwaway view of the file
// system: the command sees every file as it was when the run started, and
// nothing it writes survives the run.
//
// # Mechanism
//
// Enter runs in the process that is about to exec the command (envbisect's
// helper, see package launch), on its locked main thread, before the exec:
//
//  1. unshare(CLONE_NEWNS): a mount namespace of the process's own, made
//     private (MS_PRIVATE|MS_REC) so nothing propagates back to the host.
//  2. /proc/self/mountinfo lists the mounts the process can reach; each one
//     is opened (O_PATH), and a mount hidden under another one (its id is
//     not the one its mount point resolves to) is left out.
//  3. A tmpfs, the run's scratch, is mounted over a directory of the old
//     tree (/tmp, or another that exists); the new tree is built in it.
//  4. Every reachable mount is replicated in the new tree, parents before
//     children (so bind mounts inside the tree are kept):
//     - a writable directory mount of a disk-like file system gets an
//     overlay: its lower layer is the real mount (through its O_PATH fd),
//     upper and work directories are on the scratch tmpfs, the mount
//     flags (nosuid, nodev, noexec, atime) are the real mount's, and the
//     upper root takes the real root's owner and mode;
//     - a read-only mount, /proc, /sys, /dev and every pseudo file system
//     (proc, sysfs, devpts, cgroup, ...) are bind-mounted as they are, so
//     EROFS, device nodes and kernel interfaces behave as without envbisect;
//     - a writable mount of a single file (a container's /etc/hosts) is
//     copied onto the scratch tmpfs with its mode and owner, and the copy
//     is bind-mounted with the real mount's flags;
//     - where the kernel refuses an overlay (too deep a stack of overlays, a
//     lower file system overlayfs cannot use), the mount is bound as it is
//     and Report.NotIsolated names it.
//  5. Spec.Persist paths are bind-mounted (recursively) from the real tree
//     over their place in the new tree: state that must be shared.
//  6. pivot_root into the new tree, detach the old one, and chdir back to
//     the working directory by its path.
//  7. With Spec.Cwd (a replayed working directory), the working directory
//     is bind-mounted (recursively) at Spec.Cwd and the thread moves
//     there. The mount point and its missing parents are made now, in the
//     new tree: on the overlays' throwaway upper layers, with any symbolic
//     link on the way resolved inside the sandbox; a parent on a read-only
//     mount fails with EROFS rather than touch the real file system.
//     When Spec.Cwd holds the working directory (an ancestor of it), a
//     bind there would hide the working directory and the files under
//     it that the command names by absolute path: the thread only moves
//     to Spec.Cwd. Likewise when the working directory holds Spec.Cwd and
//     Spec.Cwd is a directory here (a bind there would replace its own
//     files).
//
// # Objects (a materialized run)
//
// Spec.Objects are the good environment's objects a run puts in place
// (package envobj: write a file, make a directory or a symbolic link,
// remove a path, chmod, chown, set a modification time), applied in
// order by the thread that execs the command, as root, before the
// command's identity is taken (package launch), in the view only:
//
//   - Before anything is built, each op's path (or, when it is not there
//     yet, its nearest existing ancestor) is opened to learn the mount its
//     change lands on. A mount step 4 would bind as it is (read-only, or
//     in /dev) gets an overlay instead when an object lands there, with
//     the real mount's flags; a read-only one is remounted read-only once
//     the objects are in place, so the command still meets EROFS there,
//     with the good object in it.
//   - A kernel file system (/proc, /sys) cannot hold an overlay: an
//     OpWrite of a file that is there (a tunable) writes the good content
//     to a file of the scratch tmpfs and binds it over the path, with the
//     mount's flags; any other op there fails the run, naming the path.
//     The bound file is what a read gives, not the kernel's setting:
//     the command reads the good value, the kernel acts on its own.
//     The good values come from no file of the trace but from its
//     reads: a run's contents may be Layers (the trace's files, then
//     those values).
//   - After the pivot, so that paths and symbolic links resolve as the
//     command's will, the ops run in order. Each is refused, with the
//     mount named, unless the mount its change lands on is one the run
//     made and throws away (an overlay, a copy, a bound good content):
//     never a --persist path, a mount the kernel refused an overlay, or
//     one bound as it is. Missing parents of a write, a directory or a
//     link are made as the OpMkdir for them says, else root's 0755. A
//     removal (or a replaced path) is unlinked in the merged view, where
//     overlayfs leaves a whiteout that hides the lower file; it refuses a
//     tree that holds a mount point. A chown keeps a file's set-id bits.
//   - Content comes from Contents, checked against its SHA-256 as it is
//     written. The helper gets it as a Bundle: one sealed memfd with the
//     contents back to back and an index (hash, offset, size), passed as
//     a descriptor and closed before the exec, so it needs no path
//     (in a container it has already entered the container's root).
//   - Then the working directory is bound (step 7).
//
// # A narrowed view
//
// With Spec.Narrow (narrow_linux.go) the view isolates only where the run
// writes, so that reads skip overlayfs (whose every open and read goes
// through a second, backing file):
//
//   - every writable mount step 4 would overlay is bound read-only
//     instead (with its flags): a write there fails with EROFS;
//   - each directory of Spec.Writable (the nearest that exists here), and
//     where a replayed working directory's mount point is made, gets a
//     throwaway overlay of that directory alone, mounted after the mount
//     it is on and before those below it;
//   - an OpWrite over a regular file that is there (not a mount point, and
//     no other op adds or removes an entry above it) is written to a file
//     of the scratch tmpfs, with its owner, mode and mtime, and bound over
//     the path with the mount's flags;
//   - any other object gets an overlay of the directory whose entry it
//     adds, removes or replaces; when the run writes nowhere in that
//     directory, its other entries (regular files and directories of the
//     same mount) are bound back over the overlay from the real
//     directory, read-only, so the command meets them natively, and a
//     file an OpWrite adds there is bound, like a replacing one, over a
//     placeholder made in the overlay;
//   - a view that cannot be narrowed (an object on the root of a mount,
//     more than 64 directories) is isolated in full.
//
// Report.ReadOnly names the mounts bound read-only. Every object still
// lands only on a throwaway mount, checked as above.
//
// Nothing is left behind on the host: the namespace, its mounts and the
// scratch tmpfs exist only as long as a process of the run is in the
// namespace, so they go away with the run, also after SIGKILL.
//
// Probe makes the same setup on a throwaway thread of the calling process
// (no process is started) and reports whether it works here and which
// mounts would not be isolated. Sockets in an overlaid directory stay
// reachable: overlayfs passes connect(2) to the socket inode of the lower
// layer.
//
// # Names and addresses
//
// Spec.Hostname gives the command a UTS namespace of its own with the good
// run's host name; Spec.OwnNetwork a network namespace of its own with
// only lo, up (network_linux.go), where every address is free: the good
// state of an address the command binds and a process holds here. Both
// are unshared by the thread that execs the command, before the mounts
// are built. In a network namespace of its own the command reaches no
// service outside the run (this machine's on 127.0.0.1 included), nor an
// abstract unix socket; a check command (package launch) runs outside it.
// Spec.NetNS instead joins a network namespace the caller made (package
// standin's, where stand-ins answer for the command's peers and relay the
// others).
//
// Limits: state outside the file system (a running database, the network,
// another host) is not isolated; neither are /dev/shm and the other
// pseudo file systems, which are shared as they are.
package sandbox
