package systable

// MessageFormat says what an echo protocol's messages are beyond their
// framing, for the readers that decode them: a DNS exchange is a
// resource of its own, named by what it asks (depgraph's GroupDNS), and
// locate's report decodes its answers (package dnsmsg).
type MessageFormat uint8

const (
	// MessagesDNS: DNS messages (RFC 1035 4.1), one per datagram or
	// after each length prefix.
	MessagesDNS MessageFormat = iota + 1
)
