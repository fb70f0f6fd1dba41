package systable

import "golang.org/x/sys/unix"

// The flag sets below are data shared by every row that takes the same
// concept (all open-style calls share OpenFlags, all *at calls AtFlags).
// They are read-only: rows point to them and show, record and depgraph
// read them; nothing may change them after package initialisation.
//
// Values come from golang.org/x/sys/unix for the architecture the binary
// is built for. The few constants x/sys does not export are written as
// literals with the kernel header they come from.
//
// Where the kernel has a name for zero (O_RDONLY, PROT_NONE, F_OK), the
// set lists the field as an Enum under a Mask so that 0 prints by name;
// for small bit sets that have such a name, every combination is listed
// (see combos).

// fv is one named value.
func fv(name string, value uint64) FlagValue { return FlagValue{Name: name, Value: value} }

// neg32 is how a negative value of a 32-bit C int argument is listed:
// its two's complement in the low 32 bits (see Arg.Int32).
func neg32(v int32) uint64 { return uint64(uint32(v)) }

// combos lists every combination of bits as an enum value named like
// "R_OK|W_OK", with zero named zero, for sets whose zero has a name.
func combos(zero string, bits ...FlagValue) []FlagValue {
	out := make([]FlagValue, 0, 1<<len(bits))
	for m := 0; m < 1<<len(bits); m++ {
		var v uint64
		name := ""
		for i, b := range bits {
			if m&(1<<i) == 0 {
				continue
			}
			v |= b.Value
			if name != "" {
				name += "|"
			}
			name += b.Name
		}
		if name == "" {
			name = zero
		}
		out = append(out, fv(name, v))
	}
	return out
}

// OpenFlags are the flags of open, openat, mq_open and fcntl
// F_GETFL/F_SETFL. O_CREAT decides whether the call creates its path, O_TRUNC whether it
// empties the file, O_TMPFILE that it creates an unnamed file instead.
// Composite values (O_TMPFILE includes O_DIRECTORY, O_SYNC includes
// O_DSYNC) come before their parts so they print whole.
var OpenFlags = &FlagSet{
	Name: "open_flags",
	Mask: unix.O_ACCMODE,
	Enum: []FlagValue{
		fv("O_RDONLY", unix.O_RDONLY),
		fv("O_WRONLY", unix.O_WRONLY),
		fv("O_RDWR", unix.O_RDWR),
	},
	Bits: []FlagValue{
		fv("O_CREAT", unix.O_CREAT),
		fv("O_EXCL", unix.O_EXCL),
		fv("O_NOCTTY", unix.O_NOCTTY),
		fv("O_TRUNC", unix.O_TRUNC),
		fv("O_APPEND", unix.O_APPEND),
		fv("O_NONBLOCK", unix.O_NONBLOCK),
		fv("O_SYNC", unix.O_SYNC),
		fv("O_DSYNC", unix.O_DSYNC),
		fv("O_ASYNC", unix.O_ASYNC),
		fv("O_DIRECT", unix.O_DIRECT),
		// The kernel sets O_LARGEFILE (asm-generic/fcntl.h 00100000) on
		// every file a 64-bit process opens; x/sys defines it as 0 for
		// amd64 because libc does, so the kernel value is written here.
		fv("O_LARGEFILE", 0o100000),
		fv("O_TMPFILE", unix.O_TMPFILE),
		fv("O_DIRECTORY", unix.O_DIRECTORY),
		fv("O_NOFOLLOW", unix.O_NOFOLLOW),
		fv("O_NOATIME", unix.O_NOATIME),
		fv("O_CLOEXEC", unix.O_CLOEXEC),
		fv("O_PATH", unix.O_PATH),
	},
}

// FDFlags are the fd flags of fcntl F_GETFD/F_SETFD.
var FDFlags = &FlagSet{Name: "fd_flags", Bits: []FlagValue{fv("FD_CLOEXEC", unix.FD_CLOEXEC)}}

// PipeFlags are pipe2's flags.
var PipeFlags = &FlagSet{Name: "pipe_flags", Bits: []FlagValue{
	fv("O_CLOEXEC", unix.O_CLOEXEC),
	fv("O_NONBLOCK", unix.O_NONBLOCK),
	fv("O_DIRECT", unix.O_DIRECT),
	fv("O_NOTIFICATION_PIPE", unix.O_EXCL), // linux/watch_queue.h: O_NOTIFICATION_PIPE is O_EXCL
}}

// CloexecFlags is the single flag of dup3 and inotify-style calls that
// take only O_CLOEXEC.
var CloexecFlags = &FlagSet{Name: "cloexec_flags", Bits: []FlagValue{fv("O_CLOEXEC", unix.O_CLOEXEC)}}

// AtFlags are the flags of the *at calls that look up a path
// (newfstatat, fchownat, linkat, utimensat, execveat, name_to_handle_at).
var AtFlags = &FlagSet{Name: "at_flags", Bits: []FlagValue{
	fv("AT_SYMLINK_NOFOLLOW", unix.AT_SYMLINK_NOFOLLOW),
	fv("AT_SYMLINK_FOLLOW", unix.AT_SYMLINK_FOLLOW),
	fv("AT_NO_AUTOMOUNT", unix.AT_NO_AUTOMOUNT),
	fv("AT_EMPTY_PATH", unix.AT_EMPTY_PATH),
	fv("AT_RECURSIVE", unix.AT_RECURSIVE),
}}

// StatxFlags are statx's flags: the AT_ lookup flags plus the sync mode
// (linux/fcntl.h: AT_STATX_SYNC_TYPE is 0x6000).
var StatxFlags = &FlagSet{
	Name: "statx_flags",
	Mask: 0x6000,
	Enum: []FlagValue{
		fv("AT_STATX_SYNC_AS_STAT", unix.AT_STATX_SYNC_AS_STAT),
		fv("AT_STATX_FORCE_SYNC", unix.AT_STATX_FORCE_SYNC),
		fv("AT_STATX_DONT_SYNC", unix.AT_STATX_DONT_SYNC),
	},
	Bits: AtFlags.Bits,
}

// StatxMask is statx's mask of wanted fields.
var StatxMask = &FlagSet{Name: "statx_mask", Bits: []FlagValue{
	fv("STATX_BASIC_STATS", unix.STATX_BASIC_STATS),
	fv("STATX_TYPE", unix.STATX_TYPE),
	fv("STATX_MODE", unix.STATX_MODE),
	fv("STATX_NLINK", unix.STATX_NLINK),
	fv("STATX_UID", unix.STATX_UID),
	fv("STATX_GID", unix.STATX_GID),
	fv("STATX_ATIME", unix.STATX_ATIME),
	fv("STATX_MTIME", unix.STATX_MTIME),
	fv("STATX_CTIME", unix.STATX_CTIME),
	fv("STATX_INO", unix.STATX_INO),
	fv("STATX_SIZE", unix.STATX_SIZE),
	fv("STATX_BLOCKS", unix.STATX_BLOCKS),
	fv("STATX_BTIME", unix.STATX_BTIME),
	fv("STATX_MNT_ID", unix.STATX_MNT_ID),
	fv("STATX_DIOALIGN", unix.STATX_DIOALIGN),
	fv("STATX_MNT_ID_UNIQUE", unix.STATX_MNT_ID_UNIQUE),
	fv("STATX_SUBVOL", unix.STATX_SUBVOL),
	fv("STATX_WRITE_ATOMIC", unix.STATX_WRITE_ATOMIC),
	fv("STATX_DIO_READ_ALIGN", unix.STATX_DIO_READ_ALIGN),
}}

// UnlinkatFlags are unlinkat's flags: AT_REMOVEDIR makes it rmdir.
var UnlinkatFlags = &FlagSet{Name: "unlinkat_flags", Bits: []FlagValue{fv("AT_REMOVEDIR", unix.AT_REMOVEDIR)}}

// FaccessatFlags are faccessat2's flags.
var FaccessatFlags = &FlagSet{Name: "faccessat_flags", Bits: []FlagValue{
	fv("AT_EACCESS", unix.AT_EACCESS),
	fv("AT_SYMLINK_NOFOLLOW", unix.AT_SYMLINK_NOFOLLOW),
	fv("AT_EMPTY_PATH", unix.AT_EMPTY_PATH),
}}

// AccessModes are access's and faccessat's modes (F_OK is zero).
var AccessModes = &FlagSet{
	Name: "access_mode",
	Mask: unix.R_OK | unix.W_OK | unix.X_OK,
	Enum: combos("F_OK", fv("R_OK", unix.R_OK), fv("W_OK", unix.W_OK), fv("X_OK", unix.X_OK)),
}

// RenameFlags are renameat2's flags.
var RenameFlags = &FlagSet{Name: "rename_flags", Bits: []FlagValue{
	fv("RENAME_NOREPLACE", unix.RENAME_NOREPLACE),
	fv("RENAME_EXCHANGE", unix.RENAME_EXCHANGE),
	fv("RENAME_WHITEOUT", unix.RENAME_WHITEOUT),
}}

// FileTypes is a mode_t with its file type (mknod): S_IFIFO|0644 prints
// the type by name and the permission bits in hex.
var FileTypes = &FlagSet{
	Name: "file_type",
	Mask: unix.S_IFMT,
	Enum: []FlagValue{
		fv("S_IFREG", unix.S_IFREG),
		fv("S_IFDIR", unix.S_IFDIR),
		fv("S_IFCHR", unix.S_IFCHR),
		fv("S_IFBLK", unix.S_IFBLK),
		fv("S_IFIFO", unix.S_IFIFO),
		fv("S_IFLNK", unix.S_IFLNK),
		fv("S_IFSOCK", unix.S_IFSOCK),
		fv("0", 0), // mknod treats a type of 0 as S_IFREG

	},
	Bits: []FlagValue{
		fv("S_ISUID", unix.S_ISUID),
		fv("S_ISGID", unix.S_ISGID),
		fv("S_ISVTX", unix.S_ISVTX),
	},
}

// Whence is lseek's whence.
var Whence = &FlagSet{Name: "whence", Enum: []FlagValue{
	fv("SEEK_SET", unix.SEEK_SET),
	fv("SEEK_CUR", unix.SEEK_CUR),
	fv("SEEK_END", unix.SEEK_END),
	fv("SEEK_DATA", unix.SEEK_DATA),
	fv("SEEK_HOLE", unix.SEEK_HOLE),
}}

// FlockOps are flock's operations: one of LOCK_SH, LOCK_EX, LOCK_UN, with
// LOCK_NB.
var FlockOps = &FlagSet{
	Name: "flock_op",
	Mask: unix.LOCK_SH | unix.LOCK_EX | unix.LOCK_UN,
	Enum: []FlagValue{
		fv("LOCK_SH", unix.LOCK_SH),
		fv("LOCK_EX", unix.LOCK_EX),
		fv("LOCK_UN", unix.LOCK_UN),
	},
	Bits: []FlagValue{fv("LOCK_NB", unix.LOCK_NB)},
}

// FcntlCmds are fcntl's commands. FcntlSize and FcntlFlags say what each
// does with the third argument; the fcntl row's Cond says which duplicate
// an fd or change fd flags.
var FcntlCmds = &FlagSet{Name: "fcntl_cmd", Enum: []FlagValue{
	fv("F_DUPFD", unix.F_DUPFD),
	fv("F_GETFD", unix.F_GETFD),
	fv("F_SETFD", unix.F_SETFD),
	fv("F_GETFL", unix.F_GETFL),
	fv("F_SETFL", unix.F_SETFL),
	fv("F_GETLK", unix.F_GETLK),
	fv("F_SETLK", unix.F_SETLK),
	fv("F_SETLKW", unix.F_SETLKW),
	fv("F_SETOWN", unix.F_SETOWN),
	fv("F_GETOWN", unix.F_GETOWN),
	fv("F_SETSIG", unix.F_SETSIG),
	fv("F_GETSIG", unix.F_GETSIG),
	fv("F_SETOWN_EX", unix.F_SETOWN_EX),
	fv("F_GETOWN_EX", unix.F_GETOWN_EX),
	fv("F_OFD_GETLK", unix.F_OFD_GETLK),
	fv("F_OFD_SETLK", unix.F_OFD_SETLK),
	fv("F_OFD_SETLKW", unix.F_OFD_SETLKW),
	fv("F_SETLEASE", unix.F_SETLEASE),
	fv("F_GETLEASE", unix.F_GETLEASE),
	fv("F_NOTIFY", unix.F_NOTIFY),
	fv("F_DUPFD_QUERY", unix.F_DUPFD_QUERY),
	fv("F_CREATED_QUERY", unix.F_CREATED_QUERY),
	fv("F_DUPFD_CLOEXEC", unix.F_DUPFD_CLOEXEC),
	fv("F_SETPIPE_SZ", unix.F_SETPIPE_SZ),
	fv("F_GETPIPE_SZ", unix.F_GETPIPE_SZ),
	fv("F_ADD_SEALS", unix.F_ADD_SEALS),
	fv("F_GET_SEALS", unix.F_GET_SEALS),
	fv("F_GET_RW_HINT", unix.F_GET_RW_HINT),
	fv("F_SET_RW_HINT", unix.F_SET_RW_HINT),
	fv("F_GET_FILE_RW_HINT", unix.F_GET_FILE_RW_HINT),
	fv("F_SET_FILE_RW_HINT", unix.F_SET_FILE_RW_HINT),
	fv("F_GETDELEG", unix.F_GETDELEG),
	fv("F_SETDELEG", unix.F_SETDELEG),
}}

// Prot is the memory protection of mmap, mprotect, pkey_mprotect.
var Prot = &FlagSet{
	Name: "prot",
	Mask: unix.PROT_READ | unix.PROT_WRITE | unix.PROT_EXEC,
	Enum: combos("PROT_NONE", fv("PROT_READ", unix.PROT_READ), fv("PROT_WRITE", unix.PROT_WRITE), fv("PROT_EXEC", unix.PROT_EXEC)),
	Bits: []FlagValue{
		fv("PROT_SEM", 0x8), // asm-generic/mman-common.h
		fv("PROT_GROWSDOWN", unix.PROT_GROWSDOWN),
		fv("PROT_GROWSUP", unix.PROT_GROWSUP),
	},
}

// MapFlags are mmap's flags: the mapping type under MAP_TYPE, then bits.
var MapFlags = &FlagSet{
	Name: "mmap_flags",
	Mask: unix.MAP_TYPE,
	Enum: []FlagValue{
		fv("MAP_SHARED", unix.MAP_SHARED),
		fv("MAP_PRIVATE", unix.MAP_PRIVATE),
		fv("MAP_SHARED_VALIDATE", unix.MAP_SHARED_VALIDATE),
		fv("MAP_DROPPABLE", unix.MAP_DROPPABLE),
	},
	Bits: []FlagValue{
		fv("MAP_FIXED", unix.MAP_FIXED),
		fv("MAP_ANONYMOUS", unix.MAP_ANONYMOUS),
		fv("MAP_32BIT", unix.MAP_32BIT),
		fv("MAP_ABOVE4G", unix.MAP_ABOVE4G),
		fv("MAP_GROWSDOWN", unix.MAP_GROWSDOWN),
		fv("MAP_DENYWRITE", unix.MAP_DENYWRITE),
		fv("MAP_EXECUTABLE", unix.MAP_EXECUTABLE),
		fv("MAP_LOCKED", unix.MAP_LOCKED),
		fv("MAP_NORESERVE", unix.MAP_NORESERVE),
		fv("MAP_POPULATE", unix.MAP_POPULATE),
		fv("MAP_NONBLOCK", unix.MAP_NONBLOCK),
		fv("MAP_STACK", unix.MAP_STACK),
		fv("MAP_HUGETLB", unix.MAP_HUGETLB),
		fv("MAP_SYNC", unix.MAP_SYNC),
		fv("MAP_FIXED_NOREPLACE", unix.MAP_FIXED_NOREPLACE),
		// MAP_UNINITIALIZED (0x4000000) is left out: only no-MMU kernels
		// honour it, and its bit is part of the MAP_HUGE_* size field.
	},
}

// MremapFlags are mremap's flags.
var MremapFlags = &FlagSet{Name: "mremap_flags", Bits: []FlagValue{
	fv("MREMAP_MAYMOVE", unix.MREMAP_MAYMOVE),
	fv("MREMAP_FIXED", unix.MREMAP_FIXED),
	fv("MREMAP_DONTUNMAP", unix.MREMAP_DONTUNMAP),
}}

// MsyncFlags are msync's flags.
var MsyncFlags = &FlagSet{Name: "msync_flags", Bits: []FlagValue{
	fv("MS_ASYNC", unix.MS_ASYNC),
	fv("MS_INVALIDATE", unix.MS_INVALIDATE),
	fv("MS_SYNC", unix.MS_SYNC),
}}

// MlockFlags are mlock2's flags.
var MlockFlags = &FlagSet{Name: "mlock_flags", Bits: []FlagValue{fv("MLOCK_ONFAULT", unix.MLOCK_ONFAULT)}}

// MlockallFlags are mlockall's flags.
var MlockallFlags = &FlagSet{Name: "mlockall_flags", Bits: []FlagValue{
	fv("MCL_CURRENT", unix.MCL_CURRENT),
	fv("MCL_FUTURE", unix.MCL_FUTURE),
	fv("MCL_ONFAULT", unix.MCL_ONFAULT),
}}

// MadviseAdvice is madvise's advice.
var MadviseAdvice = &FlagSet{Name: "madvise_advice", Enum: []FlagValue{
	fv("MADV_NORMAL", unix.MADV_NORMAL),
	fv("MADV_RANDOM", unix.MADV_RANDOM),
	fv("MADV_SEQUENTIAL", unix.MADV_SEQUENTIAL),
	fv("MADV_WILLNEED", unix.MADV_WILLNEED),
	fv("MADV_DONTNEED", unix.MADV_DONTNEED),
	fv("MADV_FREE", unix.MADV_FREE),
	fv("MADV_REMOVE", unix.MADV_REMOVE),
	fv("MADV_DONTFORK", unix.MADV_DONTFORK),
	fv("MADV_DOFORK", unix.MADV_DOFORK),
	fv("MADV_MERGEABLE", unix.MADV_MERGEABLE),
	fv("MADV_UNMERGEABLE", unix.MADV_UNMERGEABLE),
	fv("MADV_HUGEPAGE", unix.MADV_HUGEPAGE),
	fv("MADV_NOHUGEPAGE", unix.MADV_NOHUGEPAGE),
	fv("MADV_DONTDUMP", unix.MADV_DONTDUMP),
	fv("MADV_DODUMP", unix.MADV_DODUMP),
	fv("MADV_WIPEONFORK", unix.MADV_WIPEONFORK),
	fv("MADV_KEEPONFORK", unix.MADV_KEEPONFORK),
	fv("MADV_COLD", unix.MADV_COLD),
	fv("MADV_PAGEOUT", unix.MADV_PAGEOUT),
	fv("MADV_POPULATE_READ", unix.MADV_POPULATE_READ),
	fv("MADV_POPULATE_WRITE", unix.MADV_POPULATE_WRITE),
	fv("MADV_DONTNEED_LOCKED", unix.MADV_DONTNEED_LOCKED),
	fv("MADV_COLLAPSE", unix.MADV_COLLAPSE),
	fv("MADV_HWPOISON", unix.MADV_HWPOISON),
	fv("MADV_GUARD_INSTALL", unix.MADV_GUARD_INSTALL),
	fv("MADV_GUARD_REMOVE", unix.MADV_GUARD_REMOVE),
}}

// MempolicyModes are the NUMA policy modes of set_mempolicy and mbind.
var MempolicyModes = &FlagSet{
	Name: "mempolicy_mode",
	Mask: 0xff, // linux/mempolicy.h: the mode is the low bits, MPOL_F_* flags (bits 13-15) above
	Enum: []FlagValue{
		fv("MPOL_DEFAULT", unix.MPOL_DEFAULT),
		fv("MPOL_PREFERRED", unix.MPOL_PREFERRED),
		fv("MPOL_BIND", unix.MPOL_BIND),
		fv("MPOL_INTERLEAVE", unix.MPOL_INTERLEAVE),
		fv("MPOL_LOCAL", unix.MPOL_LOCAL),
		fv("MPOL_PREFERRED_MANY", unix.MPOL_PREFERRED_MANY),
		fv("MPOL_WEIGHTED_INTERLEAVE", unix.MPOL_WEIGHTED_INTERLEAVE),
	},
	Bits: []FlagValue{
		fv("MPOL_F_STATIC_NODES", unix.MPOL_F_STATIC_NODES),
		fv("MPOL_F_RELATIVE_NODES", unix.MPOL_F_RELATIVE_NODES),
		fv("MPOL_F_NUMA_BALANCING", unix.MPOL_F_NUMA_BALANCING),
	},
}

// GetMempolicyFlags are get_mempolicy's flags.
var GetMempolicyFlags = &FlagSet{Name: "get_mempolicy_flags", Bits: []FlagValue{
	fv("MPOL_F_NODE", unix.MPOL_F_NODE),
	fv("MPOL_F_ADDR", unix.MPOL_F_ADDR),
	fv("MPOL_F_MEMS_ALLOWED", unix.MPOL_F_MEMS_ALLOWED),
}}

// MbindFlags are mbind's flags.
var MbindFlags = &FlagSet{Name: "mbind_flags", Bits: []FlagValue{
	fv("MPOL_MF_STRICT", unix.MPOL_MF_STRICT),
	fv("MPOL_MF_MOVE", unix.MPOL_MF_MOVE),
	fv("MPOL_MF_MOVE_ALL", unix.MPOL_MF_MOVE_ALL),
}}

// MembarrierCmds are membarrier's commands (linux/membarrier.h).
var MembarrierCmds = &FlagSet{Name: "membarrier_cmd", Enum: []FlagValue{
	fv("MEMBARRIER_CMD_QUERY", 0),
	fv("MEMBARRIER_CMD_GLOBAL", 1<<0),
	fv("MEMBARRIER_CMD_GLOBAL_EXPEDITED", 1<<1),
	fv("MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED", 1<<2),
	fv("MEMBARRIER_CMD_PRIVATE_EXPEDITED", 1<<3),
	fv("MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED", 1<<4),
	fv("MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE", 1<<5),
	fv("MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE", 1<<6),
	fv("MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ", 1<<7),
	fv("MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ", 1<<8),
	fv("MEMBARRIER_CMD_GET_REGISTRATIONS", 1<<9),
}}

// CloneFlags are clone's and unshare's flags. The low byte (CSIGNAL) of
// clone's flags is the signal sent to the parent when the child exits.
var CloneFlags = &FlagSet{
	Name: "clone_flags",
	Mask: unix.CSIGNAL,
	Enum: signalValues(),
	Bits: []FlagValue{
		fv("CLONE_VM", unix.CLONE_VM),
		fv("CLONE_FS", unix.CLONE_FS),
		fv("CLONE_FILES", unix.CLONE_FILES),
		fv("CLONE_SIGHAND", unix.CLONE_SIGHAND),
		fv("CLONE_PIDFD", unix.CLONE_PIDFD),
		fv("CLONE_PTRACE", unix.CLONE_PTRACE),
		fv("CLONE_VFORK", unix.CLONE_VFORK),
		fv("CLONE_PARENT", unix.CLONE_PARENT),
		fv("CLONE_THREAD", unix.CLONE_THREAD),
		fv("CLONE_NEWNS", unix.CLONE_NEWNS),
		fv("CLONE_SYSVSEM", unix.CLONE_SYSVSEM),
		fv("CLONE_SETTLS", unix.CLONE_SETTLS),
		fv("CLONE_PARENT_SETTID", unix.CLONE_PARENT_SETTID),
		fv("CLONE_CHILD_CLEARTID", unix.CLONE_CHILD_CLEARTID),
		fv("CLONE_DETACHED", unix.CLONE_DETACHED),
		fv("CLONE_UNTRACED", unix.CLONE_UNTRACED),
		fv("CLONE_CHILD_SETTID", unix.CLONE_CHILD_SETTID),
		fv("CLONE_NEWCGROUP", unix.CLONE_NEWCGROUP),
		fv("CLONE_NEWUTS", unix.CLONE_NEWUTS),
		fv("CLONE_NEWIPC", unix.CLONE_NEWIPC),
		fv("CLONE_NEWUSER", unix.CLONE_NEWUSER),
		fv("CLONE_NEWPID", unix.CLONE_NEWPID),
		fv("CLONE_NEWNET", unix.CLONE_NEWNET),
		fv("CLONE_IO", unix.CLONE_IO),
		fv("CLONE_CLEAR_SIGHAND", unix.CLONE_CLEAR_SIGHAND),
		fv("CLONE_INTO_CGROUP", unix.CLONE_INTO_CGROUP),
	},
}

// NamespaceFlags are unshare's and setns's flags: the clone flags without
// an exit signal, plus CLONE_NEWTIME, whose bit clone reads as part of
// the signal (only clone3 and unshare take it).
var NamespaceFlags = &FlagSet{
	Name: "namespace_flags",
	Bits: append(append([]FlagValue(nil), CloneFlags.Bits...), fv("CLONE_NEWTIME", unix.CLONE_NEWTIME)),
}

// SocketFamilies are the address families of socket and socketpair.
var SocketFamilies = &FlagSet{Name: "socket_family", Enum: []FlagValue{
	fv("AF_UNSPEC", unix.AF_UNSPEC),
	fv("AF_UNIX", unix.AF_UNIX),
	fv("AF_INET", unix.AF_INET),
	fv("AF_AX25", unix.AF_AX25),
	fv("AF_IPX", unix.AF_IPX),
	fv("AF_APPLETALK", unix.AF_APPLETALK),
	fv("AF_X25", unix.AF_X25),
	fv("AF_INET6", unix.AF_INET6),
	fv("AF_KEY", unix.AF_KEY),
	fv("AF_NETLINK", unix.AF_NETLINK),
	fv("AF_PACKET", unix.AF_PACKET),
	fv("AF_RDS", unix.AF_RDS),
	fv("AF_LLC", unix.AF_LLC),
	fv("AF_CAN", unix.AF_CAN),
	fv("AF_TIPC", unix.AF_TIPC),
	fv("AF_BLUETOOTH", unix.AF_BLUETOOTH),
	fv("AF_ALG", unix.AF_ALG),
	fv("AF_VSOCK", unix.AF_VSOCK),
	fv("AF_KCM", unix.AF_KCM),
	fv("AF_QIPCRTR", unix.AF_QIPCRTR),
	fv("AF_SMC", unix.AF_SMC),
	fv("AF_XDP", unix.AF_XDP),
	fv("AF_MCTP", unix.AF_MCTP),
}}

// SocketTypes are socket's type: the type in the low nibble
// (linux/net.h SOCK_TYPE_MASK 0xf), then SOCK_NONBLOCK and SOCK_CLOEXEC.
var SocketTypes = &FlagSet{
	Name: "socket_type",
	Mask: 0xf,
	Enum: []FlagValue{
		fv("SOCK_STREAM", unix.SOCK_STREAM),
		fv("SOCK_DGRAM", unix.SOCK_DGRAM),
		fv("SOCK_RAW", unix.SOCK_RAW),
		fv("SOCK_RDM", unix.SOCK_RDM),
		fv("SOCK_SEQPACKET", unix.SOCK_SEQPACKET),
		fv("SOCK_DCCP", unix.SOCK_DCCP),
		fv("SOCK_PACKET", unix.SOCK_PACKET),
	},
	Bits: SockFlags.Bits,
}

// SockFlags are the SOCK_NONBLOCK and SOCK_CLOEXEC of accept4.
var SockFlags = &FlagSet{Name: "sock_flags", Bits: []FlagValue{
	fv("SOCK_NONBLOCK", unix.SOCK_NONBLOCK),
	fv("SOCK_CLOEXEC", unix.SOCK_CLOEXEC),
}}

// MsgFlags are the flags of send, recv and their msg variants.
var MsgFlags = &FlagSet{Name: "msg_flags", Bits: []FlagValue{
	fv("MSG_OOB", unix.MSG_OOB),
	fv("MSG_PEEK", unix.MSG_PEEK),
	fv("MSG_DONTROUTE", unix.MSG_DONTROUTE),
	fv("MSG_CTRUNC", unix.MSG_CTRUNC),
	fv("MSG_PROXY", unix.MSG_PROXY),
	fv("MSG_TRUNC", unix.MSG_TRUNC),
	fv("MSG_DONTWAIT", unix.MSG_DONTWAIT),
	fv("MSG_EOR", unix.MSG_EOR),
	fv("MSG_WAITALL", unix.MSG_WAITALL),
	fv("MSG_FIN", unix.MSG_FIN),
	fv("MSG_SYN", unix.MSG_SYN),
	fv("MSG_CONFIRM", unix.MSG_CONFIRM),
	fv("MSG_RST", unix.MSG_RST),
	fv("MSG_ERRQUEUE", unix.MSG_ERRQUEUE),
	fv("MSG_NOSIGNAL", unix.MSG_NOSIGNAL),
	fv("MSG_MORE", unix.MSG_MORE),
	fv("MSG_WAITFORONE", unix.MSG_WAITFORONE),
	fv("MSG_BATCH", unix.MSG_BATCH),
	fv("MSG_SOCK_DEVMEM", unix.MSG_SOCK_DEVMEM),
	fv("MSG_ZEROCOPY", unix.MSG_ZEROCOPY),
	fv("MSG_FASTOPEN", unix.MSG_FASTOPEN),
	fv("MSG_CMSG_CLOEXEC", unix.MSG_CMSG_CLOEXEC),
}}

// ShutdownHow is shutdown's how.
var ShutdownHow = &FlagSet{Name: "shutdown_how", Enum: []FlagValue{
	fv("SHUT_RD", unix.SHUT_RD),
	fv("SHUT_WR", unix.SHUT_WR),
	fv("SHUT_RDWR", unix.SHUT_RDWR),
}}

// SockoptLevels are the levels of setsockopt and getsockopt. The option
// names depend on the level and are printed as numbers.
var SockoptLevels = &FlagSet{Name: "sockopt_level", Enum: []FlagValue{
	fv("SOL_IP", unix.SOL_IP),
	fv("SOL_SOCKET", unix.SOL_SOCKET),
	fv("SOL_TCP", unix.SOL_TCP),
	fv("SOL_UDP", unix.SOL_UDP),
	fv("SOL_IPV6", unix.SOL_IPV6),
	fv("SOL_ICMPV6", unix.SOL_ICMPV6),
	fv("SOL_RAW", unix.SOL_RAW),
	fv("SOL_PACKET", unix.SOL_PACKET),
	fv("SOL_NETLINK", unix.SOL_NETLINK),
	fv("SOL_ALG", unix.SOL_ALG),
	fv("SOL_TLS", unix.SOL_TLS),
	fv("SOL_XDP", unix.SOL_XDP),
}}

// FutexOps are futex's operations: the command in the low bits
// (linux/futex.h FUTEX_CMD_MASK), FUTEX_PRIVATE_FLAG and
// FUTEX_CLOCK_REALTIME above it. x/sys does not export these.
var FutexOps = &FlagSet{
	Name: "futex_op",
	Mask: 0x7f,
	Enum: []FlagValue{
		fv("FUTEX_WAIT", 0),
		fv("FUTEX_WAKE", 1),
		fv("FUTEX_FD", 2),
		fv("FUTEX_REQUEUE", 3),
		fv("FUTEX_CMP_REQUEUE", 4),
		fv("FUTEX_WAKE_OP", 5),
		fv("FUTEX_LOCK_PI", 6),
		fv("FUTEX_UNLOCK_PI", 7),
		fv("FUTEX_TRYLOCK_PI", 8),
		fv("FUTEX_WAIT_BITSET", 9),
		fv("FUTEX_WAKE_BITSET", 10),
		fv("FUTEX_WAIT_REQUEUE_PI", 11),
		fv("FUTEX_CMP_REQUEUE_PI", 12),
		fv("FUTEX_LOCK_PI2", 13),
	},
	Bits: []FlagValue{
		fv("FUTEX_PRIVATE_FLAG", 128),
		fv("FUTEX_CLOCK_REALTIME", 256),
	},
}

// ClockIDs are the clocks of clock_gettime and friends. Negative ids
// (per-process and per-thread CPU clocks, dynamic clocks) print in hex.
var ClockIDs = &FlagSet{Name: "clockid", Enum: []FlagValue{
	fv("CLOCK_REALTIME", unix.CLOCK_REALTIME),
	fv("CLOCK_MONOTONIC", unix.CLOCK_MONOTONIC),
	fv("CLOCK_PROCESS_CPUTIME_ID", unix.CLOCK_PROCESS_CPUTIME_ID),
	fv("CLOCK_THREAD_CPUTIME_ID", unix.CLOCK_THREAD_CPUTIME_ID),
	fv("CLOCK_MONOTONIC_RAW", unix.CLOCK_MONOTONIC_RAW),
	fv("CLOCK_REALTIME_COARSE", unix.CLOCK_REALTIME_COARSE),
	fv("CLOCK_MONOTONIC_COARSE", unix.CLOCK_MONOTONIC_COARSE),
	fv("CLOCK_BOOTTIME", unix.CLOCK_BOOTTIME),
	fv("CLOCK_REALTIME_ALARM", unix.CLOCK_REALTIME_ALARM),
	fv("CLOCK_BOOTTIME_ALARM", unix.CLOCK_BOOTTIME_ALARM),
	fv("CLOCK_TAI", unix.CLOCK_TAI),
}}

// TimerFlags are clock_nanosleep's and timer_settime's flags.
var TimerFlags = &FlagSet{Name: "timer_flags", Bits: []FlagValue{fv("TIMER_ABSTIME", unix.TIMER_ABSTIME)}}

// TimerfdFlags are timerfd_create's flags.
var TimerfdFlags = &FlagSet{Name: "timerfd_flags", Bits: []FlagValue{
	fv("TFD_CLOEXEC", unix.TFD_CLOEXEC),
	fv("TFD_NONBLOCK", unix.TFD_NONBLOCK),
}}

// TimerfdSettimeFlags are timerfd_settime's flags.
var TimerfdSettimeFlags = &FlagSet{Name: "timerfd_settime_flags", Bits: []FlagValue{
	fv("TFD_TIMER_ABSTIME", unix.TFD_TIMER_ABSTIME),
	fv("TFD_TIMER_CANCEL_ON_SET", unix.TFD_TIMER_CANCEL_ON_SET),
}}

// ItimerWhich is getitimer's and setitimer's timer.
var ItimerWhich = &FlagSet{Name: "itimer_which", Enum: []FlagValue{
	fv("ITIMER_REAL", unix.ITIMER_REAL),
	fv("ITIMER_VIRTUAL", unix.ITIMER_VIRTUAL),
	fv("ITIMER_PROF", unix.ITIMER_PROF),
}}

// SigprocmaskHow is rt_sigprocmask's how.
var SigprocmaskHow = &FlagSet{Name: "sigprocmask_how", Enum: []FlagValue{
	fv("SIG_BLOCK", unix.SIG_BLOCK),
	fv("SIG_UNBLOCK", unix.SIG_UNBLOCK),
	fv("SIG_SETMASK", unix.SIG_SETMASK),
}}

// PollEvents are the events and revents of struct pollfd, for decoding
// poll's and ppoll's buffers.
var PollEvents = &FlagSet{Name: "poll_events", Bits: []FlagValue{
	fv("POLLIN", unix.POLLIN),
	fv("POLLPRI", unix.POLLPRI),
	fv("POLLOUT", unix.POLLOUT),
	fv("POLLERR", unix.POLLERR),
	fv("POLLHUP", unix.POLLHUP),
	fv("POLLNVAL", unix.POLLNVAL),
	fv("POLLRDNORM", 0x40), // asm-generic/poll.h
	fv("POLLRDBAND", 0x80),
	fv("POLLWRNORM", 0x100),
	fv("POLLWRBAND", 0x200),
	fv("POLLMSG", 0x400),     // asm-generic/poll.h
	fv("POLLREMOVE", 0x1000), // asm-generic/poll.h
	fv("POLLRDHUP", unix.POLLRDHUP),
}}

// EpollCtlOps are epoll_ctl's operations.
var EpollCtlOps = &FlagSet{Name: "epoll_ctl_op", Enum: []FlagValue{
	fv("EPOLL_CTL_ADD", unix.EPOLL_CTL_ADD),
	fv("EPOLL_CTL_DEL", unix.EPOLL_CTL_DEL),
	fv("EPOLL_CTL_MOD", unix.EPOLL_CTL_MOD),
}}

// EpollEvents are the events of struct epoll_event, for decoding
// epoll_ctl's and epoll_wait's buffers.
var EpollEvents = &FlagSet{Name: "epoll_events", Bits: []FlagValue{
	fv("EPOLLIN", unix.EPOLLIN),
	fv("EPOLLPRI", unix.EPOLLPRI),
	fv("EPOLLOUT", unix.EPOLLOUT),
	fv("EPOLLERR", unix.EPOLLERR),
	fv("EPOLLHUP", unix.EPOLLHUP),
	fv("EPOLLNVAL", 0x20), // linux/eventpoll.h
	fv("EPOLLRDNORM", unix.EPOLLRDNORM),
	fv("EPOLLRDBAND", unix.EPOLLRDBAND),
	fv("EPOLLWRNORM", unix.EPOLLWRNORM),
	fv("EPOLLWRBAND", unix.EPOLLWRBAND),
	fv("EPOLLMSG", unix.EPOLLMSG),
	fv("EPOLLRDHUP", unix.EPOLLRDHUP),
	fv("EPOLLEXCLUSIVE", unix.EPOLLEXCLUSIVE),
	fv("EPOLLWAKEUP", unix.EPOLLWAKEUP),
	fv("EPOLLONESHOT", unix.EPOLLONESHOT),
	fv("EPOLLET", unix.EPOLLET),
}}

// EpollCreateFlags are epoll_create1's flags.
var EpollCreateFlags = &FlagSet{Name: "epoll_create_flags", Bits: []FlagValue{fv("EPOLL_CLOEXEC", unix.EPOLL_CLOEXEC)}}

// EventfdFlags are eventfd2's flags.
var EventfdFlags = &FlagSet{Name: "eventfd_flags", Bits: []FlagValue{
	fv("EFD_SEMAPHORE", unix.EFD_SEMAPHORE),
	fv("EFD_CLOEXEC", unix.EFD_CLOEXEC),
	fv("EFD_NONBLOCK", unix.EFD_NONBLOCK),
}}

// SignalfdFlags are signalfd4's flags.
var SignalfdFlags = &FlagSet{Name: "signalfd_flags", Bits: []FlagValue{
	fv("SFD_CLOEXEC", unix.SFD_CLOEXEC),
	fv("SFD_NONBLOCK", unix.SFD_NONBLOCK),
}}

// InotifyInitFlags are inotify_init1's flags.
var InotifyInitFlags = &FlagSet{Name: "inotify_init_flags", Bits: []FlagValue{
	fv("IN_CLOEXEC", unix.IN_CLOEXEC),
	fv("IN_NONBLOCK", unix.IN_NONBLOCK),
}}

// InotifyMask is inotify_add_watch's mask.
var InotifyMask = &FlagSet{Name: "inotify_mask", Bits: []FlagValue{
	fv("IN_ALL_EVENTS", unix.IN_ALL_EVENTS),
	fv("IN_ACCESS", unix.IN_ACCESS),
	fv("IN_MODIFY", unix.IN_MODIFY),
	fv("IN_ATTRIB", unix.IN_ATTRIB),
	fv("IN_CLOSE_WRITE", unix.IN_CLOSE_WRITE),
	fv("IN_CLOSE_NOWRITE", unix.IN_CLOSE_NOWRITE),
	fv("IN_OPEN", unix.IN_OPEN),
	fv("IN_MOVED_FROM", unix.IN_MOVED_FROM),
	fv("IN_MOVED_TO", unix.IN_MOVED_TO),
	fv("IN_CREATE", unix.IN_CREATE),
	fv("IN_DELETE", unix.IN_DELETE),
	fv("IN_DELETE_SELF", unix.IN_DELETE_SELF),
	fv("IN_MOVE_SELF", unix.IN_MOVE_SELF),
	fv("IN_UNMOUNT", unix.IN_UNMOUNT),
	fv("IN_Q_OVERFLOW", unix.IN_Q_OVERFLOW),
	fv("IN_IGNORED", unix.IN_IGNORED),
	fv("IN_ONLYDIR", unix.IN_ONLYDIR),
	fv("IN_DONT_FOLLOW", unix.IN_DONT_FOLLOW),
	fv("IN_EXCL_UNLINK", unix.IN_EXCL_UNLINK),
	fv("IN_MASK_CREATE", unix.IN_MASK_CREATE),
	fv("IN_MASK_ADD", unix.IN_MASK_ADD),
	fv("IN_ISDIR", unix.IN_ISDIR),
	fv("IN_ONESHOT", unix.IN_ONESHOT),
}}

// FanotifyInitFlags are fanotify_init's flags.
var FanotifyInitFlags = &FlagSet{Name: "fanotify_init_flags", Bits: []FlagValue{
	fv("FAN_CLOEXEC", unix.FAN_CLOEXEC),
	fv("FAN_NONBLOCK", unix.FAN_NONBLOCK),
	fv("FAN_CLASS_CONTENT", unix.FAN_CLASS_CONTENT),
	fv("FAN_CLASS_PRE_CONTENT", unix.FAN_CLASS_PRE_CONTENT),
	fv("FAN_UNLIMITED_QUEUE", unix.FAN_UNLIMITED_QUEUE),
	fv("FAN_UNLIMITED_MARKS", unix.FAN_UNLIMITED_MARKS),
	fv("FAN_ENABLE_AUDIT", unix.FAN_ENABLE_AUDIT),
	fv("FAN_REPORT_PIDFD", unix.FAN_REPORT_PIDFD),
	fv("FAN_REPORT_TID", unix.FAN_REPORT_TID),
	fv("FAN_REPORT_FID", unix.FAN_REPORT_FID),
	fv("FAN_REPORT_DIR_FID", unix.FAN_REPORT_DIR_FID),
	fv("FAN_REPORT_NAME", unix.FAN_REPORT_NAME),
	fv("FAN_REPORT_TARGET_FID", unix.FAN_REPORT_TARGET_FID),
}}

// FanotifyMarkFlags are fanotify_mark's flags.
var FanotifyMarkFlags = &FlagSet{Name: "fanotify_mark_flags", Bits: []FlagValue{
	fv("FAN_MARK_ADD", unix.FAN_MARK_ADD),
	fv("FAN_MARK_REMOVE", unix.FAN_MARK_REMOVE),
	fv("FAN_MARK_DONT_FOLLOW", unix.FAN_MARK_DONT_FOLLOW),
	fv("FAN_MARK_ONLYDIR", unix.FAN_MARK_ONLYDIR),
	fv("FAN_MARK_IGNORED_MASK", unix.FAN_MARK_IGNORED_MASK),
	fv("FAN_MARK_IGNORED_SURV_MODIFY", unix.FAN_MARK_IGNORED_SURV_MODIFY),
	fv("FAN_MARK_FLUSH", unix.FAN_MARK_FLUSH),
	fv("FAN_MARK_EVICTABLE", unix.FAN_MARK_EVICTABLE),
	fv("FAN_MARK_IGNORE", unix.FAN_MARK_IGNORE),
	fv("FAN_MARK_MOUNT", unix.FAN_MARK_MOUNT),
	fv("FAN_MARK_FILESYSTEM", unix.FAN_MARK_FILESYSTEM),
}}

// MemfdFlags are memfd_create's flags.
var MemfdFlags = &FlagSet{Name: "memfd_flags", Bits: []FlagValue{
	fv("MFD_CLOEXEC", unix.MFD_CLOEXEC),
	fv("MFD_ALLOW_SEALING", unix.MFD_ALLOW_SEALING),
	fv("MFD_HUGETLB", unix.MFD_HUGETLB),
	fv("MFD_NOEXEC_SEAL", unix.MFD_NOEXEC_SEAL),
	fv("MFD_EXEC", unix.MFD_EXEC),
}}

// GetrandomFlags are getrandom's flags.
var GetrandomFlags = &FlagSet{Name: "getrandom_flags", Bits: []FlagValue{
	fv("GRND_NONBLOCK", unix.GRND_NONBLOCK),
	fv("GRND_RANDOM", unix.GRND_RANDOM),
	fv("GRND_INSECURE", unix.GRND_INSECURE),
}}

// RlimitResources are the resources of getrlimit, setrlimit, prlimit64.
var RlimitResources = &FlagSet{Name: "rlimit_resource", Enum: []FlagValue{
	fv("RLIMIT_CPU", unix.RLIMIT_CPU),
	fv("RLIMIT_FSIZE", unix.RLIMIT_FSIZE),
	fv("RLIMIT_DATA", unix.RLIMIT_DATA),
	fv("RLIMIT_STACK", unix.RLIMIT_STACK),
	fv("RLIMIT_CORE", unix.RLIMIT_CORE),
	fv("RLIMIT_RSS", unix.RLIMIT_RSS),
	fv("RLIMIT_NPROC", unix.RLIMIT_NPROC),
	fv("RLIMIT_NOFILE", unix.RLIMIT_NOFILE),
	fv("RLIMIT_MEMLOCK", unix.RLIMIT_MEMLOCK),
	fv("RLIMIT_AS", unix.RLIMIT_AS),
	fv("RLIMIT_LOCKS", unix.RLIMIT_LOCKS),
	fv("RLIMIT_SIGPENDING", unix.RLIMIT_SIGPENDING),
	fv("RLIMIT_MSGQUEUE", unix.RLIMIT_MSGQUEUE),
	fv("RLIMIT_NICE", unix.RLIMIT_NICE),
	fv("RLIMIT_RTPRIO", unix.RLIMIT_RTPRIO),
	fv("RLIMIT_RTTIME", unix.RLIMIT_RTTIME),
}}

// RusageWho is getrusage's who.
var RusageWho = &FlagSet{Name: "rusage_who", Enum: []FlagValue{
	fv("RUSAGE_SELF", unix.RUSAGE_SELF),
	fv("RUSAGE_CHILDREN", neg32(unix.RUSAGE_CHILDREN)),
	fv("RUSAGE_THREAD", unix.RUSAGE_THREAD),
}}

// WaitOptions are wait4's options.
var WaitOptions = &FlagSet{Name: "wait_options", Bits: []FlagValue{
	fv("WNOHANG", unix.WNOHANG),
	fv("WUNTRACED", unix.WUNTRACED),
	fv("WCONTINUED", unix.WCONTINUED),
	fv("__WNOTHREAD", unix.WNOTHREAD),
	fv("__WALL", unix.WALL),
	fv("__WCLONE", unix.WCLONE),
}}

// WaitidOptions are waitid's options.
var WaitidOptions = &FlagSet{Name: "waitid_options", Bits: []FlagValue{
	fv("WNOHANG", unix.WNOHANG),
	fv("WSTOPPED", unix.WSTOPPED),
	fv("WEXITED", unix.WEXITED),
	fv("WCONTINUED", unix.WCONTINUED),
	fv("WNOWAIT", unix.WNOWAIT),
	fv("__WNOTHREAD", unix.WNOTHREAD),
	fv("__WALL", unix.WALL),
	fv("__WCLONE", unix.WCLONE),
}}

// IDTypes are waitid's idtype.
var IDTypes = &FlagSet{Name: "idtype", Enum: []FlagValue{
	fv("P_ALL", unix.P_ALL),
	fv("P_PID", unix.P_PID),
	fv("P_PGID", unix.P_PGID),
	fv("P_PIDFD", unix.P_PIDFD),
}}

// PriorityWhich is getpriority's and setpriority's which.
var PriorityWhich = &FlagSet{Name: "priority_which", Enum: []FlagValue{
	fv("PRIO_PROCESS", unix.PRIO_PROCESS),
	fv("PRIO_PGRP", unix.PRIO_PGRP),
	fv("PRIO_USER", unix.PRIO_USER),
}}

// SchedPolicies are the scheduling policies of sched_setscheduler.
var SchedPolicies = &FlagSet{
	Name: "sched_policy",
	Mask: 0xff,
	Enum: []FlagValue{
		fv("SCHED_OTHER", unix.SCHED_NORMAL),
		fv("SCHED_FIFO", unix.SCHED_FIFO),
		fv("SCHED_RR", unix.SCHED_RR),
		fv("SCHED_BATCH", unix.SCHED_BATCH),
		fv("SCHED_IDLE", unix.SCHED_IDLE),
		fv("SCHED_DEADLINE", unix.SCHED_DEADLINE),
		fv("SCHED_EXT", unix.SCHED_EXT),
	},
	Bits: []FlagValue{fv("SCHED_RESET_ON_FORK", unix.SCHED_RESET_ON_FORK)},
}

// SpliceFlags are the flags of splice, tee and vmsplice.
var SpliceFlags = &FlagSet{Name: "splice_flags", Bits: []FlagValue{
	fv("SPLICE_F_MOVE", unix.SPLICE_F_MOVE),
	fv("SPLICE_F_NONBLOCK", unix.SPLICE_F_NONBLOCK),
	fv("SPLICE_F_MORE", unix.SPLICE_F_MORE),
	fv("SPLICE_F_GIFT", unix.SPLICE_F_GIFT),
}}

// FallocateModes are fallocate's mode bits.
var FallocateModes = &FlagSet{Name: "fallocate_mode", Bits: []FlagValue{
	fv("FALLOC_FL_KEEP_SIZE", unix.FALLOC_FL_KEEP_SIZE),
	fv("FALLOC_FL_PUNCH_HOLE", unix.FALLOC_FL_PUNCH_HOLE),
	fv("FALLOC_FL_NO_HIDE_STALE", unix.FALLOC_FL_NO_HIDE_STALE),
	fv("FALLOC_FL_COLLAPSE_RANGE", unix.FALLOC_FL_COLLAPSE_RANGE),
	fv("FALLOC_FL_ZERO_RANGE", unix.FALLOC_FL_ZERO_RANGE),
	fv("FALLOC_FL_INSERT_RANGE", unix.FALLOC_FL_INSERT_RANGE),
	fv("FALLOC_FL_UNSHARE_RANGE", unix.FALLOC_FL_UNSHARE_RANGE),
	fv("FALLOC_FL_WRITE_ZEROES", unix.FALLOC_FL_WRITE_ZEROES),
}}

// FadviseAdvice is fadvise64's advice.
var FadviseAdvice = &FlagSet{Name: "fadvise_advice", Enum: []FlagValue{
	fv("POSIX_FADV_NORMAL", unix.FADV_NORMAL),
	fv("POSIX_FADV_RANDOM", unix.FADV_RANDOM),
	fv("POSIX_FADV_SEQUENTIAL", unix.FADV_SEQUENTIAL),
	fv("POSIX_FADV_WILLNEED", unix.FADV_WILLNEED),
	fv("POSIX_FADV_DONTNEED", unix.FADV_DONTNEED),
	fv("POSIX_FADV_NOREUSE", unix.FADV_NOREUSE),
}}

// SyncFileRangeFlags are sync_file_range's flags.
var SyncFileRangeFlags = &FlagSet{Name: "sync_file_range_flags", Bits: []FlagValue{
	fv("SYNC_FILE_RANGE_WAIT_BEFORE", unix.SYNC_FILE_RANGE_WAIT_BEFORE),
	fv("SYNC_FILE_RANGE_WRITE", unix.SYNC_FILE_RANGE_WRITE),
	fv("SYNC_FILE_RANGE_WAIT_AFTER", unix.SYNC_FILE_RANGE_WAIT_AFTER),
}}

// XattrFlags are setxattr's flags.
var XattrFlags = &FlagSet{Name: "xattr_flags", Bits: []FlagValue{
	fv("XATTR_CREATE", unix.XATTR_CREATE),
	fv("XATTR_REPLACE", unix.XATTR_REPLACE),
}}

// CloseRangeFlags are close_range's flags.
var CloseRangeFlags = &FlagSet{Name: "close_range_flags", Bits: []FlagValue{
	fv("CLOSE_RANGE_UNSHARE", unix.CLOSE_RANGE_UNSHARE),
	fv("CLOSE_RANGE_CLOEXEC", unix.CLOSE_RANGE_CLOEXEC),
}}

// RWFlags are preadv2's and pwritev2's flags.
var RWFlags = &FlagSet{Name: "rw_flags", Bits: []FlagValue{
	fv("RWF_HIPRI", unix.RWF_HIPRI),
	fv("RWF_DSYNC", unix.RWF_DSYNC),
	fv("RWF_SYNC", unix.RWF_SYNC),
	fv("RWF_NOWAIT", unix.RWF_NOWAIT),
	fv("RWF_APPEND", unix.RWF_APPEND),
	fv("RWF_NOAPPEND", unix.RWF_NOAPPEND),
	fv("RWF_ATOMIC", unix.RWF_ATOMIC),
	fv("RWF_DONTCACHE", unix.RWF_DONTCACHE),
}}

// MountFlags are mount's flags.
var MountFlags = &FlagSet{Name: "mount_flags", Bits: []FlagValue{
	fv("MS_RDONLY", unix.MS_RDONLY),
	fv("MS_NOSUID", unix.MS_NOSUID),
	fv("MS_NODEV", unix.MS_NODEV),
	fv("MS_NOEXEC", unix.MS_NOEXEC),
	fv("MS_SYNCHRONOUS", unix.MS_SYNCHRONOUS),
	fv("MS_REMOUNT", unix.MS_REMOUNT),
	fv("MS_MANDLOCK", unix.MS_MANDLOCK),
	fv("MS_DIRSYNC", unix.MS_DIRSYNC),
	fv("MS_NOSYMFOLLOW", unix.MS_NOSYMFOLLOW),
	fv("MS_NOATIME", unix.MS_NOATIME),
	fv("MS_NODIRATIME", unix.MS_NODIRATIME),
	fv("MS_BIND", unix.MS_BIND),
	fv("MS_MOVE", unix.MS_MOVE),
	fv("MS_REC", unix.MS_REC),
	fv("MS_SILENT", unix.MS_SILENT),
	fv("MS_POSIXACL", unix.MS_POSIXACL),
	fv("MS_UNBINDABLE", unix.MS_UNBINDABLE),
	fv("MS_PRIVATE", unix.MS_PRIVATE),
	fv("MS_SLAVE", unix.MS_SLAVE),
	fv("MS_SHARED", unix.MS_SHARED),
	fv("MS_RELATIME", unix.MS_RELATIME),
	fv("MS_KERNMOUNT", unix.MS_KERNMOUNT),
	fv("MS_I_VERSION", unix.MS_I_VERSION),
	fv("MS_STRICTATIME", unix.MS_STRICTATIME),
	fv("MS_LAZYTIME", unix.MS_LAZYTIME),
	fv("MS_MGC_VAL", unix.MS_MGC_VAL),
}}

// UmountFlags are umount2's flags.
var UmountFlags = &FlagSet{Name: "umount_flags", Bits: []FlagValue{
	fv("MNT_FORCE", unix.MNT_FORCE),
	fv("MNT_DETACH", unix.MNT_DETACH),
	fv("MNT_EXPIRE", unix.MNT_EXPIRE),
	fv("UMOUNT_NOFOLLOW", unix.UMOUNT_NOFOLLOW),
}}

// ArchPrctlCodes are arch_prctl's codes (asm/prctl.h; x/sys does not
// export them).
var ArchPrctlCodes = &FlagSet{Name: "arch_prctl_code", Enum: []FlagValue{
	fv("ARCH_SET_GS", 0x1001),
	fv("ARCH_SET_FS", 0x1002),
	fv("ARCH_GET_FS", 0x1003),
	fv("ARCH_GET_GS", 0x1004),
	fv("ARCH_GET_CPUID", 0x1011),
	fv("ARCH_SET_CPUID", 0x1012),
	fv("ARCH_GET_XCOMP_SUPP", 0x1021),
	fv("ARCH_GET_XCOMP_PERM", 0x1022),
	fv("ARCH_REQ_XCOMP_PERM", 0x1023),
	fv("ARCH_GET_XCOMP_GUEST_PERM", 0x1024),
	fv("ARCH_REQ_XCOMP_GUEST_PERM", 0x1025),
	fv("ARCH_XCOMP_TILECFG", 17),
	fv("ARCH_XCOMP_TILEDATA", 18),
	fv("ARCH_MAP_VDSO_X32", 0x2001),
	fv("ARCH_MAP_VDSO_32", 0x2002),
	fv("ARCH_MAP_VDSO_64", 0x2003),
	fv("ARCH_GET_UNTAG_MASK", 0x4001),
	fv("ARCH_ENABLE_TAGGED_ADDR", 0x4002),
	fv("ARCH_GET_MAX_TAG_BITS", 0x4003),
	fv("ARCH_FORCE_TAGGED_SVA", 0x4004),
	fv("ARCH_SHSTK_ENABLE", 0x5001),
	fv("ARCH_SHSTK_DISABLE", 0x5002),
	fv("ARCH_SHSTK_LOCK", 0x5003),
	fv("ARCH_SHSTK_UNLOCK", 0x5004),
	fv("ARCH_SHSTK_STATUS", 0x5005),
}}

// SeccompOps are seccomp's operations.
var SeccompOps = &FlagSet{Name: "seccomp_op", Enum: []FlagValue{
	fv("SECCOMP_SET_MODE_STRICT", unix.SECCOMP_SET_MODE_STRICT),
	fv("SECCOMP_SET_MODE_FILTER", unix.SECCOMP_SET_MODE_FILTER),
	fv("SECCOMP_GET_ACTION_AVAIL", unix.SECCOMP_GET_ACTION_AVAIL),
	fv("SECCOMP_GET_NOTIF_SIZES", unix.SECCOMP_GET_NOTIF_SIZES),
}}

// PidfdFlags are pidfd_open's flags.
var PidfdFlags = &FlagSet{Name: "pidfd_flags", Bits: []FlagValue{
	fv("PIDFD_NONBLOCK", unix.PIDFD_NONBLOCK),
	fv("PIDFD_THREAD", unix.PIDFD_THREAD),
}}

// ResolveFlags are the resolve field of struct open_how (openat2), for
// decoding its buffer.
var ResolveFlags = &FlagSet{Name: "resolve_flags", Bits: []FlagValue{
	fv("RESOLVE_NO_XDEV", unix.RESOLVE_NO_XDEV),
	fv("RESOLVE_NO_MAGICLINKS", unix.RESOLVE_NO_MAGICLINKS),
	fv("RESOLVE_NO_SYMLINKS", unix.RESOLVE_NO_SYMLINKS),
	fv("RESOLVE_BENEATH", unix.RESOLVE_BENEATH),
	fv("RESOLVE_IN_ROOT", unix.RESOLVE_IN_ROOT),
	fv("RESOLVE_CACHED", 0x20), // linux/openat2.h
}}

// IoprioWhich is ioprio_get's and ioprio_set's which.
var IoprioWhich = &FlagSet{Name: "ioprio_which", Enum: []FlagValue{
	fv("IOPRIO_WHO_PROCESS", 1), // linux/ioprio.h
	fv("IOPRIO_WHO_PGRP", 2),
	fv("IOPRIO_WHO_USER", 3),
}}
