package systable

import "github.com/envbisect/envbisect/systable/internal/amd64"

// Request numbers x/sys does not export (asm-generic/ioctls.h,
// linux/fs.h, linux/nsfs.h).
const (
	ioFIONREAD  = amd64.TIOCINQ // FIONREAD, TIOCINQ and SIOCINQ are one request
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
		{amd64.TCGETS, "TCGETS", termiosSize, OutBuf},
		{amd64.TCSETS, "TCSETS", termiosSize, InBuf},
		{amd64.TCSETSW, "TCSETSW", termiosSize, InBuf},
		{amd64.TCSETSF, "TCSETSF", termiosSize, InBuf},
		{amd64.TCGETS2, "TCGETS2", termios2Size, OutBuf},
		{amd64.TCSETS2, "TCSETS2", termios2Size, InBuf},
		{amd64.TCSETSW2, "TCSETSW2", termios2Size, InBuf},
		{amd64.TCSETSF2, "TCSETSF2", termios2Size, InBuf},
		{amd64.TIOCGLCKTRMIOS, "TIOCGLCKTRMIOS", termiosSize, OutBuf},
		{amd64.TIOCSLCKTRMIOS, "TIOCSLCKTRMIOS", termiosSize, InBuf},
		{amd64.TIOCGWINSZ, "TIOCGWINSZ", winsizeSize, OutBuf},
		{amd64.TIOCSWINSZ, "TIOCSWINSZ", winsizeSize, InBuf},
		{amd64.TIOCGPGRP, "TIOCGPGRP", 4, OutBuf},
		{amd64.TIOCSPGRP, "TIOCSPGRP", 4, InBuf},
		{amd64.TIOCGSID, "TIOCGSID", 4, OutBuf},
		{amd64.TIOCOUTQ, "TIOCOUTQ", 4, OutBuf},
		{amd64.TIOCGPTN, "TIOCGPTN", 4, OutBuf},
		{amd64.TIOCSPTLCK, "TIOCSPTLCK", 4, InBuf},
		{amd64.TIOCGPTLCK, "TIOCGPTLCK", 4, OutBuf},
		{amd64.TIOCGPKT, "TIOCGPKT", 4, OutBuf},
		{amd64.TIOCPKT, "TIOCPKT", 4, InBuf},
		{amd64.TIOCGEXCL, "TIOCGEXCL", 4, OutBuf},
		{amd64.TIOCGDEV, "TIOCGDEV", 4, OutBuf},
		{amd64.TIOCMGET, "TIOCMGET", 4, OutBuf},
		{amd64.TIOCMSET, "TIOCMSET", 4, InBuf},
		{amd64.TIOCMBIS, "TIOCMBIS", 4, InBuf},
		{amd64.TIOCMBIC, "TIOCMBIC", 4, InBuf},
		{amd64.TIOCGETD, "TIOCGETD", 4, OutBuf},
		{amd64.TIOCSETD, "TIOCSETD", 4, InBuf},
		{amd64.TIOCSTI, "TIOCSTI", 1, InBuf},
		{amd64.TIOCSCTTY, "TIOCSCTTY", 0, Int},
		{amd64.TIOCNOTTY, "TIOCNOTTY", 0, Int},
		{amd64.TIOCEXCL, "TIOCEXCL", 0, Int},
		{amd64.TIOCNXCL, "TIOCNXCL", 0, Int},
		{amd64.TIOCSBRK, "TIOCSBRK", 0, Int},
		{amd64.TIOCCBRK, "TIOCCBRK", 0, Int},
		{amd64.TIOCCONS, "TIOCCONS", 0, Int},
		{amd64.TIOCVHANGUP, "TIOCVHANGUP", 0, Int},
		{amd64.TIOCGPTPEER, "TIOCGPTPEER", 0, Int},
		{amd64.TCSBRK, "TCSBRK", 0, Int},
		{amd64.TCSBRKP, "TCSBRKP", 0, Int},
		{amd64.TCXONC, "TCXONC", 0, Int},
		{amd64.TCFLSH, "TCFLSH", 0, Int},

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
		{amd64.FICLONE, "FICLONE", 0, Int}, // the argument is the source fd
		{amd64.FICLONERANGE, "FICLONERANGE", 32, InBuf},
		{amd64.FS_IOC_GETFLAGS, "FS_IOC_GETFLAGS", 4, OutBuf}, // declared long, the kernel copies an int
		{amd64.FS_IOC_SETFLAGS, "FS_IOC_SETFLAGS", 4, InBuf},
		{amd64.BLKGETSIZE64, "BLKGETSIZE64", 8, OutBuf},
		{amd64.BLKGETSIZE, "BLKGETSIZE", 8, OutBuf},
		{amd64.BLKSSZGET, "BLKSSZGET", 4, OutBuf},
		{amd64.BLKBSZGET, "BLKBSZGET", 4, OutBuf}, // declared size_t, the kernel copies an int
		{amd64.BLKROGET, "BLKROGET", 4, OutBuf},
		{amd64.RNDGETENTCNT, "RNDGETENTCNT", 4, OutBuf},

		// Sockets and network interfaces.
		{amd64.SIOCGIFFLAGS, "SIOCGIFFLAGS", ifreqSize, InOutBuf},
		{amd64.SIOCGIFINDEX, "SIOCGIFINDEX", ifreqSize, InOutBuf},
		{amd64.SIOCGIFNAME, "SIOCGIFNAME", ifreqSize, InOutBuf},
		{amd64.SIOCGIFHWADDR, "SIOCGIFHWADDR", ifreqSize, InOutBuf},
		{amd64.SIOCGIFMTU, "SIOCGIFMTU", ifreqSize, InOutBuf},
		{amd64.SIOCGIFADDR, "SIOCGIFADDR", ifreqSize, InOutBuf},
		{amd64.SIOCGIFNETMASK, "SIOCGIFNETMASK", ifreqSize, InOutBuf},
		{amd64.SIOCGIFBRDADDR, "SIOCGIFBRDADDR", ifreqSize, InOutBuf},
		{amd64.SIOCGIFDSTADDR, "SIOCGIFDSTADDR", ifreqSize, InOutBuf},
		{amd64.SIOCGIFTXQLEN, "SIOCGIFTXQLEN", ifreqSize, InOutBuf},
		{amd64.SIOCGIFMETRIC, "SIOCGIFMETRIC", ifreqSize, InOutBuf},
		{amd64.SIOCSIFFLAGS, "SIOCSIFFLAGS", ifreqSize, InBuf},
		{amd64.SIOCSIFADDR, "SIOCSIFADDR", ifreqSize, InBuf},
		{amd64.SIOCSIFMTU, "SIOCSIFMTU", ifreqSize, InBuf},
		{amd64.SIOCGSTAMP, "SIOCGSTAMP", 16, OutBuf},
		{amd64.SIOCGSTAMPNS, "SIOCGSTAMPNS", 16, OutBuf},
		{amd64.SIOCATMARK, "SIOCATMARK", 4, OutBuf},
		{amd64.SIOCOUTQNSD, "SIOCOUTQNSD", 4, OutBuf},
		{amd64.SIOCGPGRP, "SIOCGPGRP", 4, OutBuf},
		{amd64.SIOCSPGRP, "SIOCSPGRP", 4, InBuf},

		// Namespaces: these return a new fd.
		{amd64.NS_GET_USERNS, "NS_GET_USERNS", 0, Int},
		{amd64.NS_GET_PARENT, "NS_GET_PARENT", 0, Int},
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
		fv("SIOCGIFCONF", amd64.SIOCGIFCONF),
		fv("FIDEDUPERANGE", amd64.FIDEDUPERANGE),
		fv("TIOCGICOUNT", amd64.TIOCGICOUNT),
	)
	return fs
}

// amd64IoctlConds are ioctl's effects that depend on the request.
func amd64IoctlConds() []CondEffect {
	return []CondEffect{
		{Arg: 1, Values: []uint64{ioFIOCLEX, ioFIONCLEX, ioFIONBIO, ioFIOASYNC}, Effect: ChangesFDFlags},
		{Arg: 1, Values: []uint64{amd64.TIOCGPTPEER, amd64.NS_GET_USERNS, amd64.NS_GET_PARENT}, Effect: CreatesFD},
		{Arg: 1, Values: []uint64{
			amd64.TCSETS, amd64.TCSETSW, amd64.TCSETSF, amd64.TCSETS2, amd64.TCSETSW2, amd64.TCSETSF2,
			amd64.TIOCSWINSZ, amd64.TIOCSPGRP, amd64.TIOCSTI, amd64.TCFLSH,
			amd64.FICLONE, amd64.FICLONERANGE, amd64.FS_IOC_SETFLAGS,
			amd64.SIOCSIFFLAGS, amd64.SIOCSIFADDR, amd64.SIOCSIFMTU,
		}, Effect: ModifiesFile},
		{Arg: 1, Values: []uint64{amd64.TIOCSCTTY, amd64.TIOCNOTTY}, Effect: ChangesProcess},
		{Arg: 1, Values: []uint64{amd64.RNDGETENTCNT}, Effect: ReadsEnvironment},
	}
}
