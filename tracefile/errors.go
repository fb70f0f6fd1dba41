package tracefile

import (
	"errors"
	"fmt"
	"io"
)

// The kinds of damage a reader reports. Every error a Reader returns for a
// bad file wraps exactly one of them; test with errors.Is.
var (
	// ErrNotTrace: the file does not start with the trace magic.
	ErrNotTrace = errors.New("not an envbisect trace")
	// ErrVersion: the file is in a newer format version than this reader
	// knows.
	ErrVersion = errors.New("unsupported trace format version")
	// ErrCorrupt: the file is damaged or breaks the format's rules.
	ErrCorrupt = errors.New("corrupt trace")
	// ErrTruncated: the file ends early, without an end frame: the
	// recording was cut short. The complete frames before the cut are
	// readable.
	ErrTruncated = errors.New("truncated trace")
)

// formatError is a reader's or writer's complaint about trace bytes. Its
// message stands alone; kind is one of the sentinels above, and cause an
// underlying error (a CBOR or zstd error), if any.
type formatError struct {
	kind  error
	msg   string
	cause error
}

func (e *formatError) Error() string { return e.msg }

func (e *formatError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

// corruptFrame reports damage in the frame at offset off.
func corruptFrame(off int64, cause error, format string, args ...any) error {
	msg := fmt.Sprintf("corrupt frame at offset %d: ", off) + fmt.Sprintf(format, args...)
	if cause != nil {
		msg += ": " + cause.Error()
	}
	return &formatError{kind: ErrCorrupt, msg: msg, cause: cause}
}

// corruptPayload reports the payload of the frame at off that does not
// decode as what (a CBOR item, a zstd frame). Data that ends inside an
// item is said to be so, not with the decoder's "unexpected EOF", which
// reads as a file cut short: the frame is whole (its checksum matched),
// and a count or length in it claims more than it holds.
func corruptPayload(off int64, err error, what string) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return corruptFrame(off, nil, "%s: the data ends inside an item: a count or length it declares is more than the whole frame holds", what)
	}
	return corruptFrame(off, err, "%s", what)
}

// corruptPreamble reports damage in the preamble.
func corruptPreamble(format string, args ...any) error {
	return &formatError{kind: ErrCorrupt, msg: "corrupt preamble: " + fmt.Sprintf(format, args...)}
}

// cutShort reports a trace that ends at offset off, after its header, with
// no end frame; n events were read before the cut.
func cutShort(off int64, partial int, n uint64) error {
	where := fmt.Sprintf("trace ends at offset %d without an end frame", off)
	if partial > 0 {
		where = fmt.Sprintf("trace ends at offset %d, %d bytes into an incomplete frame, without an end frame", off+int64(partial), partial)
	}
	return &formatError{kind: ErrTruncated, msg: fmt.Sprintf(
		"%s: the recording was cut short (the recorder was killed or the disk filled); %d events are readable", where, n)}
}
