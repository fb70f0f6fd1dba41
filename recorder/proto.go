package recorder

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Frame kinds. A frame is a little-endian u32 length (of kind and
// payload), a u8 kind, then the payload.
const (
	// Client to recorder.
	kindFollow byte = 1 // JSON followRequest; a pidfd of the process rides along (SCM_RIGHTS)
	kindDrain  byte = 2 // no payload: send what the ring holds, then End
	// Recorder to client.
	kindAck    byte = 3 // JSON ack, one per Follow
	kindRecord byte = 4 // one ring record, as the program wrote it (bpf.Decode reads it)
	kindEnd    byte = 5 // JSON endFrame: every record of the session up to the Drain was sent
)

// maxFrame bounds a frame's length: a ring record is at most a 16 KiB
// chunk or a call with its buffer descriptors; control frames are small.
const maxFrame = 1 << 20

// followRequest asks the recorder to follow a process (given as a pidfd)
// and everything it starts. MaxCapture is the capture limit the client
// records with: the recorder refuses when its programs were loaded with
// another, and the client loads its own.
type followRequest struct {
	MaxCapture uint32 `json:"max_capture"`
}

// ack answers a Follow: Error is empty when the recorder follows the
// process; Refused says the client may still record on its own (another
// capture limit, a process it may not follow).
type ack struct {
	Error      string `json:"error,omitempty"`
	RingSize   int    `json:"ring_size"`
	MaxCapture uint32 `json:"max_capture"`
}

// endFrame closes a session's stream: what the ring lost while it was
// open (the ring is shared, so these count every session's losses), and
// the records the recorder dropped because the client did not read them
// fast enough.
type endFrame struct {
	LostCalls   uint64 `json:"lost_calls"`
	LostChunks  uint64 `json:"lost_chunks"`
	LostProcs   uint64 `json:"lost_procs"`
	DropCalls   uint64 `json:"dropped_calls"`
	DropChunks  uint64 `json:"dropped_chunks"`
	DropOthers  uint64 `json:"dropped_others"`
	HiddenProcs uint64 `json:"hidden_procs"`
}

// frame builds one frame.
func frame(kind byte, payload []byte) []byte {
	b := make([]byte, 5, 5+len(payload))
	binary.LittleEndian.PutUint32(b, uint32(1+len(payload)))
	b[4] = kind
	return append(b, payload...)
}

// jsonFrame builds a frame with v as its JSON payload.
func jsonFrame(kind byte, v any) []byte {
	p, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("recorder: encode frame %d: %v", kind, err)) // plain structs: cannot fail
	}
	return frame(kind, p)
}

// readFrame reads one frame; buf is reused when large enough.
func readFrame(r io.Reader, buf []byte) (kind byte, payload []byte, err error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := binary.LittleEndian.Uint32(hdr[:4])
	if n == 0 || n > maxFrame {
		return 0, nil, fmt.Errorf("recorder: frame of %d bytes", n)
	}
	if cap(buf) < int(n-1) {
		buf = make([]byte, n-1)
	}
	buf = buf[:n-1]
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, err
	}
	return hdr[4], buf, nil
}
