package systable

// The echo protocols (echo.go), hand-written: they are wire formats
// (RFC 1035 section 4.1.1 and 4.2.2, <linux/netlink.h>'s struct
// nlmsghdr), the same on every architecture the table describes, not
// values a header gives per architecture. echo_test.go checks the
// netlink offsets against golang.org/x/sys/unix's NlMsghdr. To add a
// protocol, add a row: how its sockets are recognised, its framing, and
// its echoed fields; no other code changes.
var echoProtocols = []EchoProtocol{
	{
		// getifaddrs, iproute2 and every rtnetlink dump: nlmsg_seq comes
		// from time() (or a counter), nlmsg_pid from the socket's port
		// id, and the program skips messages whose seq or pid is not its
		// own. Every message of a multi-message dump carries both.
		Name: "netlink", Families: []uint16{AFNetlink}, Protocol: -1,
		Framing: FrameLengthField, LenOffset: 0, LenWidth: 4, Align: 4, MinLen: 16,
		Fields: []EchoField{
			{Name: "nlmsg_seq", Offset: 8, Width: 4, From: FromRequest},
			{Name: "nlmsg_pid", Offset: 12, Width: 4, From: FromLocalPort},
		},
	},
	{
		// A resolver's query: the answer must carry the query's random id.
		Name: "dns-udp", Families: []uint16{AFInet, AFInet6}, Type: sockDgram, Protocol: -1, Port: 53,
		Framing:  FrameDatagram,
		Fields:   []EchoField{{Name: "id", Offset: 0, Width: 2, From: FromRequest}},
		Messages: MessagesDNS,
	},
	{
		// DNS over TCP: each message follows its 2-byte length.
		Name: "dns-tcp", Families: []uint16{AFInet, AFInet6}, Type: sockStream, Protocol: -1, Port: 53,
		Framing: FramePrefix, LenWidth: 2, BigEndian: true,
		Fields:   []EchoField{{Name: "id", Offset: 0, Width: 2, From: FromRequest}},
		Messages: MessagesDNS,
	},
}

// Socket types the protocol rows name (the same on x86-64 and arm64).
const (
	sockStream = 1
	sockDgram  = 2
)
