package tracefile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
)

// Version is the trace format version this package writes, and the newest
// it reads. Version 1 files (no file objects) are read as well.
const Version = 2

// Magic is the first 8 bytes of every trace file.
const Magic = "ENVBTRC\x00"

// preambleSize is the size of the fixed start of a file: magic, version,
// reserved bytes.
const preambleSize = 16

// appendPreamble appends the preamble of a trace of the current Version to b.
func appendPreamble(b []byte) []byte {
	b = append(b, Magic...)
	b = binary.LittleEndian.AppendUint16(b, Version)
	return append(b, 0, 0, 0, 0, 0, 0)
}

// readPreamble reads and checks the preamble and returns the format
// version. It reports ErrNotTrace for foreign bytes, ErrTruncated when the
// input ends inside the preamble, ErrVersion for a newer version and
// ErrCorrupt for the rest.
func readPreamble(r io.Reader) (uint16, error) {
	var p [preambleSize]byte
	n, err := io.ReadFull(r, p[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return 0, fmt.Errorf("read preamble: %w", err)
	}
	got := p[:n]
	m := min(n, len(Magic))
	if n == 0 {
		return 0, &formatError{kind: ErrNotTrace, msg: "not an envbisect trace: the file is empty"}
	}
	if !bytes.Equal(got[:m], []byte(Magic)[:m]) {
		return 0, &formatError{kind: ErrNotTrace, msg: fmt.Sprintf(
			"not an envbisect trace: it starts with %q, not %q", got[:m], Magic)}
	}
	var v uint16
	if n >= len(Magic)+2 {
		v = binary.LittleEndian.Uint16(got[len(Magic):])
		if v > Version {
			return 0, &formatError{kind: ErrVersion, msg: fmt.Sprintf(
				"trace format version %d is newer than this envbisect supports (%d): upgrade envbisect", v, Version)}
		}
		if v == 0 {
			return 0, corruptPreamble("format version 0 is invalid")
		}
	}
	if n < preambleSize {
		return 0, &formatError{kind: ErrTruncated, msg: fmt.Sprintf(
			"trace ends at offset %d inside its preamble: the recording was cut short", n)}
	}
	for _, c := range got[len(Magic)+2:] {
		if c != 0 {
			return 0, corruptPreamble("reserved bytes % x are not zero", got[len(Magic)+2:])
		}
	}
	return v, nil
}
