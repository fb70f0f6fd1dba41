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
// Limits: state outside the file system (a running database, the network,
// another host) is not isolated; neither are /dev/shm and the other
// pseudo file systems, which are shared as they are.
package sandbox
