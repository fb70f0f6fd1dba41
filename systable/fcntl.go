package systable

import "github.com/envbisect/envbisect/systable/internal/amd64"

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
	case amd64.F_GETLK, amd64.F_OFD_GETLK:
		return flockSize, InOutBuf
	case amd64.F_SETLK, amd64.F_SETLKW, amd64.F_OFD_SETLK, amd64.F_OFD_SETLKW:
		return flockSize, InBuf
	case amd64.F_GETOWN_EX:
		return fOwnerExSize, OutBuf
	case amd64.F_SETOWN_EX:
		return fOwnerExSize, InBuf
	case amd64.F_GET_RW_HINT, amd64.F_GET_FILE_RW_HINT:
		return rwHintSize, OutBuf
	case amd64.F_SET_RW_HINT, amd64.F_SET_FILE_RW_HINT:
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
	case amd64.F_GETFL, amd64.F_SETFL:
		return OpenFlags
	case amd64.F_GETFD, amd64.F_SETFD:
		return FDFlags
	case amd64.F_ADD_SEALS, amd64.F_GET_SEALS:
		return SealFlags
	}
	return nil
}

// fcntlConds are fcntl's effects that depend on the command.
func fcntlConds() []CondEffect {
	return []CondEffect{
		{Arg: 1, Values: []uint64{amd64.F_DUPFD, amd64.F_DUPFD_CLOEXEC}, Effect: DupsFD | CreatesFD},
		{Arg: 1, Values: []uint64{amd64.F_SETFD, amd64.F_SETFL}, Effect: ChangesFDFlags},
	}
}

// PrctlSize says what prctl's second argument points to for option op:
// its size and direction, as FcntlSize does for fcntl. Options whose
// second argument is a value, or that return their answer, give 0 and
// Int.
func PrctlSize(op uint64) (size uint32, dir Kind) {
	switch uint32(op) {
	case amd64.PR_GET_NAME:
		return prctlNameSize, OutBuf
	case amd64.PR_SET_NAME:
		return prctlNameSize, InBuf
	case amd64.PR_GET_PDEATHSIG, amd64.PR_GET_CHILD_SUBREAPER, amd64.PR_GET_TSC,
		amd64.PR_GET_ENDIAN, amd64.PR_GET_FPEMU, amd64.PR_GET_FPEXC, amd64.PR_GET_UNALIGN:
		return 4, OutBuf
	case amd64.PR_GET_TID_ADDRESS:
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
			amd64.PR_CAPBSET_READ, amd64.PR_GET_SECUREBITS, amd64.PR_GET_KEEPCAPS,
			amd64.PR_GET_NO_NEW_PRIVS, amd64.PR_CAP_AMBIENT, amd64.PR_GET_SECCOMP,
			amd64.PR_GET_SPECULATION_CTRL, amd64.PR_GET_SHADOW_STACK_STATUS,
		}, Effect: ReadsEnvironment},
		{Arg: 0, Values: []uint64{
			amd64.PR_CAPBSET_DROP, amd64.PR_SET_SECUREBITS, amd64.PR_SET_KEEPCAPS,
			amd64.PR_SET_NO_NEW_PRIVS, amd64.PR_CAP_AMBIENT,
		}, Effect: ChangesCreds},
		{Arg: 0, Values: []uint64{
			amd64.PR_SET_PDEATHSIG, amd64.PR_SET_DUMPABLE, amd64.PR_SET_NAME,
			amd64.PR_SET_TIMERSLACK, amd64.PR_SET_CHILD_SUBREAPER, amd64.PR_SET_THP_DISABLE,
			amd64.PR_SET_SECCOMP, amd64.PR_SET_MM, amd64.PR_SET_PTRACER, amd64.PR_SET_VMA,
			amd64.PR_SET_TSC, amd64.PR_SET_SPECULATION_CTRL, amd64.PR_SET_IO_FLUSHER,
			amd64.PR_SET_MDWE, amd64.PR_SET_MEMORY_MERGE, amd64.PR_SET_TAGGED_ADDR_CTRL,
		}, Effect: ChangesProcess},
	}
}
