package systable

// MsgLayout is where the socket message structs keep what the engines
// read and write in a tracee's memory: struct iovec, struct msghdr
// (sendmsg, recvmsg) and struct mmsghdr (sendmmsg, recvmmsg: a msghdr
// followed by msg_len, the bytes sent or received for that message).
// The values are the C compiler's (xlat/socket_msg_layout.in), per
// architecture like the rows.
type MsgLayout struct {
	IovecSize int // sizeof(struct iovec): iov_base, then iov_len (8 bytes each)

	MsghdrSize int // sizeof(struct msghdr); msg_name is at 0
	NameLen    int // offset of msg_namelen (socklen_t)
	Iov        int // offset of msg_iov
	IovLen     int // offset of msg_iovlen (size_t)
	Control    int // offset of msg_control
	ControlLen int // offset of msg_controllen (size_t)

	MmsghdrSize int // sizeof(struct mmsghdr): the stride of a sendmmsg or recvmmsg array
	MsgLen      int // offset of msg_len (unsigned int) in struct mmsghdr
}

// Msg returns the layout of the socket message structs on the table's
// architecture.
func (t *Table) Msg() MsgLayout { return t.msg }

// MaxMmsg bounds the entries of an mmsghdr array the engines walk: the
// kernel's UIO_MAXIOV, the most sendmmsg and recvmmsg take.
const MaxMmsg = 1024
