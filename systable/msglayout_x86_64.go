package systable

import "github.com/envbisect/envbisect/systable/internal/amd64"

// amd64Msg is the x86-64 layout of the socket message structs.
func amd64Msg() MsgLayout {
	return MsgLayout{
		IovecSize:   amd64.SIZEOF_IOVEC,
		MsghdrSize:  amd64.SIZEOF_MSGHDR,
		NameLen:     amd64.OFFSETOF_MSGHDR_NAMELEN,
		Iov:         amd64.OFFSETOF_MSGHDR_IOV,
		IovLen:      amd64.OFFSETOF_MSGHDR_IOVLEN,
		Control:     amd64.OFFSETOF_MSGHDR_CONTROL,
		ControlLen:  amd64.OFFSETOF_MSGHDR_CONTROLLEN,
		MmsghdrSize: amd64.SIZEOF_MMSGHDR,
		MsgLen:      amd64.OFFSETOF_MMSGHDR_MSG_LEN,
	}
}
