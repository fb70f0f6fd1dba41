package tracefile

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

// Plain writes the payload of every frame of the trace at path to w,
// decompressed (the chunks of files included), in file order: the bytes
// a search of the trace for a secret must look at, since a grep of the
// compressed file finds nothing whatever it holds. Each payload is
// preceded by a line naming its frame ("== events frame at 1234").
func Plain(path string, w io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := &Reader{name: path, r: bufio.NewReaderSize(f, 64<<10), lim: defaultLimits}
	if r.version, err = readPreamble(r.r); err != nil {
		return r.wrap(err)
	}
	r.off = preambleSize
	for {
		t, p, off, err := r.readFrame()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return r.wrap(err)
		}
		if t == frameChunk && r.fh[1]&flagZstd != 0 {
			dec, err := newZstdDecoder(hashSize + MaxChunkSize)
			if err != nil {
				return err
			}
			p, err = dec.DecodeAll(p, nil)
			dec.Close()
			if err != nil {
				return r.wrap(corruptFrame(off, err, "chunk: zstd"))
			}
		}
		if _, err := fmt.Fprintf(w, "\n== %s frame at %d\n", t, off); err != nil {
			return err
		}
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
}
