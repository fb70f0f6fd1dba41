package trace

// AddrRedirect is an address a semi-replay run could not bind here: the
// recording bound it, the live bind failed (EADDRINUSE: a process
// outside the traced tree holds it; EACCES: a privileged port), so the
// socket was bound to the same address with a free port (or, for a unix
// socket, an autobound abstract name) and every traced connect or send
// to the recorded address went to the live one instead.
type AddrRedirect struct {
	Seq      uint64 `json:"seq"` // the recorded bind
	Proc     uint32 `json:"proc"`
	Thread   uint32 `json:"thread"`
	Recorded string `json:"recorded"` // the address the program bound, as recorded
	Live     string `json:"live"`     // the address its socket has in this run
	Errno    string `json:"errno"`    // what the live bind to Recorded got
	// Redirected counts the connects and sends to Recorded that went to
	// Live.
	Redirected int `json:"redirected"`
}
