package systable

import "golang.org/x/sys/unix"

// Sizes of the structs behind fcntl's third argument (x86-64 and every
// other 64-bit Linux ABI).
const (
	flockSize     = 32 // struct flock
	fOwnerExSize  = 8  // struct f_owner_ex
	rwHintSize    = 8  // u64
	prctlNameSize = 16 // TASK_COMM_LEN
)

// FcntlSize says what fcntl's third argument points to for command cmd:
// its size and whether the call reads it (InBuf), writes it (OutBuf) or
// both (InOutBuf). For commands whose argument is a plain value (F_DUPFD,
// F_SETFL, F_SETFD, ...) or that take none it returns 0 and Int.
func FcntlSize(cmd uint64) (size uint32, dir Kind) {
	switch uint32(cmd) {
	case unix.F_GETLK, unix.F_OFD_GETLK:
		return flockSize, InOutBuf
	case unix.F_SETLK, unix.F_SETLKW, unix.F_OFD_SETLK, unix.F_OFD_SETLKW:
		return flockSize, InBuf
	case unix.F_GETOWN_EX:
		return fOwnerExSize, OutBuf
	case unix.F_SETOWN_EX:
		return fOwnerExSize, InBuf
	case unix.F_GET_RW_HINT, unix.F_GET_FILE_RW_HINT:
		return rwHintSize, OutBuf
	case unix.F_SET_RW_HINT, unix.F_SET_FILE_RW_HINT:
		return rwHintSize, InBuf
	}
	return 0, Int
}

// FcntlFlags returns the flag set of the value fcntl command cmd sets
// (its third argument) or gets (its return value): open flags for
// F_SETFL and F_GETFL, fd flags for F_SETFD and F_GETFD, seals for
// F_ADD_SEALS and F_GET_SEALS; nil for other commands.
func FcntlFlags(cmd uint64) *FlagSet {
	switch uint32(cmd) {
	case unix.F_GETFL, unix.F_SETFL:
		return OpenFlags
	case unix.F_GETFD, unix.F_SETFD:
		return FDFlags
	case unix.F_ADD_SEALS, unix.F_GET_SEALS:
		return SealFlags
	}
	return nil
}

// fcntlConds are fcntl's effects that depend on the command.
func fcntlConds() []CondEffect {
	return []CondEffect{
		{Arg: 1, Values: []uint64{unix.F_DUPFD, unix.F_DUPFD_CLOEXEC}, Effect: DupsFD | CreatesFD},
		{Arg: 1, Values: []uint64{unix.F_SETFD, unix.F_SETFL}, Effect: ChangesFDFlags},
	}
}

// PrctlSize says what prctl's second argument points to for option op:
// its size and direction, as FcntlSize does for fcntl. Options whose
// second argument is a value, or that return their answer, give 0 and
// Int.
func PrctlSize(op uint64) (size uint32, dir Kind) {
	switch uint32(op) {
	case unix.PR_GET_NAME:
		return prctlNameSize, OutBuf
	case unix.PR_SET_NAME:
		return prctlNameSize, InBuf
	case unix.PR_GET_PDEATHSIG, unix.PR_GET_CHILD_SUBREAPER, unix.PR_GET_TSC,
		unix.PR_GET_ENDIAN, unix.PR_GET_FPEMU, unix.PR_GET_FPEXC, unix.PR_GET_UNALIGN:
		return 4, OutBuf
	case unix.PR_GET_TID_ADDRESS:
		return 8, OutBuf
	}
	return 0, Int
}

// prctlConds are prctl's effects that depend on the option: options that
// read the process's privileges or limits read the environment; options
// that change credentials change creds; the other setters change a
// process attribute.
func prctlConds() []CondEffect {
	return []CondEffect{
		{Arg: 0, Values: []uint64{
			unix.PR_CAPBSET_READ, unix.PR_GET_SECUREBITS, unix.PR_GET_KEEPCAPS,
			unix.PR_GET_NO_NEW_PRIVS, unix.PR_CAP_AMBIENT, unix.PR_GET_SECCOMP,
			unix.PR_GET_SPECULATION_CTRL, unix.PR_GET_SHADOW_STACK_STATUS,
		}, Effect: ReadsEnvironment},
		{Arg: 0, Values: []uint64{
			unix.PR_CAPBSET_DROP, unix.PR_SET_SECUREBITS, unix.PR_SET_KEEPCAPS,
			unix.PR_SET_NO_NEW_PRIVS, unix.PR_CAP_AMBIENT,
		}, Effect: ChangesCreds},
		{Arg: 0, Values: []uint64{
			unix.PR_SET_PDEATHSIG, unix.PR_SET_DUMPABLE, unix.PR_SET_NAME,
			unix.PR_SET_TIMERSLACK, unix.PR_SET_CHILD_SUBREAPER, unix.PR_SET_THP_DISABLE,
			unix.PR_SET_SECCOMP, unix.PR_SET_MM, unix.PR_SET_PTRACER, unix.PR_SET_VMA,
			unix.PR_SET_TSC, unix.PR_SET_SPECULATION_CTRL, unix.PR_SET_IO_FLUSHER,
			unix.PR_SET_MDWE, unix.PR_SET_MEMORY_MERGE, unix.PR_SET_TAGGED_ADDR_CTRL,
		}, Effect: ChangesProcess},
	}
}
