package systable

import "golang.org/x/sys/unix"

// Request numbers x/sys does not export (asm-generic/ioctls.h,
// linux/fs.h, linux/nsfs.h).
const (
	ioFIONREAD  = unix.TIOCINQ // FIONREAD, TIOCINQ and SIOCINQ are one request
	ioFIONBIO   = 0x5421
	ioFIONCLEX  = 0x5450
	ioFIOCLEX   = 0x5451
	ioFIOASYNC  = 0x5452
	ioFIOQSIZE  = 0x5460
	ioFIBMAP    = 0x1
	ioFIGETBSZ  = 0x2
	ioNSGetType = 0xb703 // NS_GET_NSTYPE
)

// Sizes of the structs ioctl requests point to.
const (
	termiosSize  = 36 // struct termios (kernel layout: 4 flags, c_line, 19 c_cc)
	termios2Size = 44 // struct termios2
	winsizeSize  = 8  // struct winsize
	ifreqSize    = 40 // struct ifreq
)

// amd64Ioctls lists the ioctl requests whose third argument the table
// describes: the memory it points to (Size bytes read, written or both),
// or, with Size 0 and Dir Int, a plain value or nothing. Requests not
// listed here are recorded with the argument raw and nothing captured:
// replay must execute them, since their effect on memory is unknown.
//
// SIOCGIFCONF is deliberately not listed: its struct ifconf points to an
// array of struct ifreq that a fixed size cannot describe. Its name is
// still printed (see amd64IoctlNames).
func amd64Ioctls() []IoctlRow {
	return []IoctlRow{
		// Terminals.
		{unix.TCGETS, "TCGETS", termiosSize, OutBuf},
		{unix.TCSETS, "TCSETS", termiosSize, InBuf},
		{unix.TCSETSW, "TCSETSW", termiosSize, InBuf},
		{unix.TCSETSF, "TCSETSF", termiosSize, InBuf},
		{unix.TCGETS2, "TCGETS2", termios2Size, OutBuf},
		{unix.TCSETS2, "TCSETS2", termios2Size, InBuf},
		{unix.TCSETSW2, "TCSETSW2", termios2Size, InBuf},
		{unix.TCSETSF2, "TCSETSF2", termios2Size, InBuf},
		{unix.TIOCGLCKTRMIOS, "TIOCGLCKTRMIOS", termiosSize, OutBuf},
		{unix.TIOCSLCKTRMIOS, "TIOCSLCKTRMIOS", termiosSize, InBuf},
		{unix.TIOCGWINSZ, "TIOCGWINSZ", winsizeSize, OutBuf},
		{unix.TIOCSWINSZ, "TIOCSWINSZ", winsizeSize, InBuf},
		{unix.TIOCGPGRP, "TIOCGPGRP", 4, OutBuf},
		{unix.TIOCSPGRP, "TIOCSPGRP", 4, InBuf},
		{unix.TIOCGSID, "TIOCGSID", 4, OutBuf},
		{unix.TIOCOUTQ, "TIOCOUTQ", 4, OutBuf},
		{unix.TIOCGPTN, "TIOCGPTN", 4, OutBuf},
		{unix.TIOCSPTLCK, "TIOCSPTLCK", 4, InBuf},
		{unix.TIOCGPTLCK, "TIOCGPTLCK", 4, OutBuf},
		{unix.TIOCGPKT, "TIOCGPKT", 4, OutBuf},
		{unix.TIOCPKT, "TIOCPKT", 4, InBuf},
		{unix.TIOCGEXCL, "TIOCGEXCL", 4, OutBuf},
		{unix.TIOCGDEV, "TIOCGDEV", 4, OutBuf},
		{unix.TIOCMGET, "TIOCMGET", 4, OutBuf},
		{unix.TIOCMSET, "TIOCMSET", 4, InBuf},
		{unix.TIOCMBIS, "TIOCMBIS", 4, InBuf},
		{unix.TIOCMBIC, "TIOCMBIC", 4, InBuf},
		{unix.TIOCGETD, "TIOCGETD", 4, OutBuf},
		{unix.TIOCSETD, "TIOCSETD", 4, InBuf},
		{unix.TIOCSTI, "TIOCSTI", 1, InBuf},
		{unix.TIOCSCTTY, "TIOCSCTTY", 0, Int},
		{unix.TIOCNOTTY, "TIOCNOTTY", 0, Int},
		{unix.TIOCEXCL, "TIOCEXCL", 0, Int},
		{unix.TIOCNXCL, "TIOCNXCL", 0, Int},
		{unix.TIOCSBRK, "TIOCSBRK", 0, Int},
		{unix.TIOCCBRK, "TIOCCBRK", 0, Int},
		{unix.TIOCCONS, "TIOCCONS", 0, Int},
		{unix.TIOCVHANGUP, "TIOCVHANGUP", 0, Int},
		{unix.TIOCGPTPEER, "TIOCGPTPEER", 0, Int},
		{unix.TCSBRK, "TCSBRK", 0, Int},
		{unix.TCSBRKP, "TCSBRKP", 0, Int},
		{unix.TCXONC, "TCXONC", 0, Int},
		{unix.TCFLSH, "TCFLSH", 0, Int},

		// Any fd.
		{ioFIONREAD, "FIONREAD", 4, OutBuf},
		{ioFIONBIO, "FIONBIO", 4, InBuf},
		{ioFIOASYNC, "FIOASYNC", 4, InBuf},
		{ioFIOCLEX, "FIOCLEX", 0, Int},
		{ioFIONCLEX, "FIONCLEX", 0, Int},
		{ioFIOQSIZE, "FIOQSIZE", 8, OutBuf},

		// Files and block devices.
		{ioFIBMAP, "FIBMAP", 4, InOutBuf},
		{ioFIGETBSZ, "FIGETBSZ", 4, OutBuf},
		{unix.FICLONE, "FICLONE", 0, Int}, // the argument is the source fd
		{unix.FICLONERANGE, "FICLONERANGE", 32, InBuf},
		{unix.FS_IOC_GETFLAGS, "FS_IOC_GETFLAGS", 4, OutBuf}, // declared long, the kernel copies an int
		{unix.FS_IOC_SETFLAGS, "FS_IOC_SETFLAGS", 4, InBuf},
		{unix.BLKGETSIZE64, "BLKGETSIZE64", 8, OutBuf},
		{unix.BLKGETSIZE, "BLKGETSIZE", 8, OutBuf},
		{unix.BLKSSZGET, "BLKSSZGET", 4, OutBuf},
		{unix.BLKBSZGET, "BLKBSZGET", 4, OutBuf}, // declared size_t, the kernel copies an int
		{unix.BLKROGET, "BLKROGET", 4, OutBuf},
		{unix.RNDGETENTCNT, "RNDGETENTCNT", 4, OutBuf},

		// Sockets and network interfaces.
		{unix.SIOCGIFFLAGS, "SIOCGIFFLAGS", ifreqSize, InOutBuf},
		{unix.SIOCGIFINDEX, "SIOCGIFINDEX", ifreqSize, InOutBuf},
		{unix.SIOCGIFNAME, "SIOCGIFNAME", ifreqSize, InOutBuf},
		{unix.SIOCGIFHWADDR, "SIOCGIFHWADDR", ifreqSize, InOutBuf},
		{unix.SIOCGIFMTU, "SIOCGIFMTU", ifreqSize, InOutBuf},
		{unix.SIOCGIFADDR, "SIOCGIFADDR", ifreqSize, InOutBuf},
		{unix.SIOCGIFNETMASK, "SIOCGIFNETMASK", ifreqSize, InOutBuf},
		{unix.SIOCGIFBRDADDR, "SIOCGIFBRDADDR", ifreqSize, InOutBuf},
		{unix.SIOCGIFDSTADDR, "SIOCGIFDSTADDR", ifreqSize, InOutBuf},
		{unix.SIOCGIFTXQLEN, "SIOCGIFTXQLEN", ifreqSize, InOutBuf},
		{unix.SIOCGIFMETRIC, "SIOCGIFMETRIC", ifreqSize, InOutBuf},
		{unix.SIOCSIFFLAGS, "SIOCSIFFLAGS", ifreqSize, InBuf},
		{unix.SIOCSIFADDR, "SIOCSIFADDR", ifreqSize, InBuf},
		{unix.SIOCSIFMTU, "SIOCSIFMTU", ifreqSize, InBuf},
		{unix.SIOCGSTAMP, "SIOCGSTAMP", 16, OutBuf},
		{unix.SIOCGSTAMPNS, "SIOCGSTAMPNS", 16, OutBuf},
		{unix.SIOCATMARK, "SIOCATMARK", 4, OutBuf},
		{unix.SIOCOUTQNSD, "SIOCOUTQNSD", 4, OutBuf},
		{unix.SIOCGPGRP, "SIOCGPGRP", 4, OutBuf},
		{unix.SIOCSPGRP, "SIOCSPGRP", 4, InBuf},

		// Namespaces: these return a new fd.
		{unix.NS_GET_USERNS, "NS_GET_USERNS", 0, Int},
		{unix.NS_GET_PARENT, "NS_GET_PARENT", 0, Int},
		{ioNSGetType, "NS_GET_NSTYPE", 0, Int},
	}
}

// amd64IoctlNames are the names ioctl requests print with: every request
// in amd64Ioctls, plus requests whose memory the table does not describe.
func amd64IoctlNames(rows []IoctlRow) *FlagSet {
	fs := &FlagSet{Name: "ioctl_request"}
	for _, r := range rows {
		fs.Enum = append(fs.Enum, fv(r.Name, r.Req))
	}
	fs.Enum = append(fs.Enum,
		fv("SIOCGIFCONF", unix.SIOCGIFCONF),
		fv("FIDEDUPERANGE", unix.FIDEDUPERANGE),
		fv("TIOCGICOUNT", unix.TIOCGICOUNT),
	)
	return fs
}

// amd64IoctlConds are ioctl's effects that depend on the request.
func amd64IoctlConds() []CondEffect {
	return []CondEffect{
		{Arg: 1, Values: []uint64{ioFIOCLEX, ioFIONCLEX, ioFIONBIO, ioFIOASYNC}, Effect: ChangesFDFlags},
		{Arg: 1, Values: []uint64{unix.TIOCGPTPEER, unix.NS_GET_USERNS, unix.NS_GET_PARENT}, Effect: CreatesFD},
		{Arg: 1, Values: []uint64{
			unix.TCSETS, unix.TCSETSW, unix.TCSETSF, unix.TCSETS2, unix.TCSETSW2, unix.TCSETSF2,
			unix.TIOCSWINSZ, unix.TIOCSPGRP, unix.TIOCSTI, unix.TCFLSH,
			unix.FICLONE, unix.FICLONERANGE, unix.FS_IOC_SETFLAGS,
			unix.SIOCSIFFLAGS, unix.SIOCSIFADDR, unix.SIOCSIFMTU,
		}, Effect: ModifiesFile},
		{Arg: 1, Values: []uint64{unix.TIOCSCTTY, unix.TIOCNOTTY}, Effect: ChangesProcess},
		{Arg: 1, Values: []uint64{unix.RNDGETENTCNT}, Effect: ReadsEnvironment},
	}
}
