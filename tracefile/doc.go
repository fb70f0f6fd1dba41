// Package tracefile reads and writes envbisect's trace files: the on-disk
// form of a recording. The format is specified in docs/trace-format.md;
// this comment explains how the code carries it out.
//
// # The file
//
// A trace is a 16-byte preamble (the magic "ENVBTRC\x00", the format
// version, reserved bytes) followed by frames. A frame is a 12-byte header
// (type, flags, length, CRC-32C) and a payload: the trace.Header first, then
// optionally the start events, then blob and events frames as the recording
// goes, and an end frame when it finishes. Structured payloads are CBOR
// (github.com/fxamacker/cbor/v2) keyed by the integer tags of package
// trace; payloads are zstd-compressed (github.com/klauspost/compress/zstd)
// when that makes them smaller.
//
// # Writing
//
// Create opens the file 0600 and writes the preamble and header at once, so
// an unwritable destination fails before the command runs. Each
// WriteEvents call hashes every buffer of at least Options.BlobThreshold
// bytes (SHA-256), appends a blob frame for each address not yet in the
// file, encodes a copy of the events in which those buffers are replaced by
// their address, compresses, checksums, and hands all of it to the kernel
// in a single write. Nothing is held back: when WriteEvents returns, its
// frames are in the file, and a recorder killed with SIGKILL a moment later
// leaves a trace readable up to there. The caller's events are never
// modified. Scratch buffers, the CBOR encoding mode and the zstd encoder
// belong to the Writer and are reused from call to call, so steady-state
// writing allocates almost nothing. Close writes the end frame and fsyncs;
// Abort fsyncs without one.
//
// # Reading
//
// Open and NewReader read the preamble and header eagerly, so that a
// foreign or newer file is refused before anything else happens. Next reads
// frame after frame: it bounds the length before reading, reads with
// io.ReadFull in bounded steps, verifies the checksum, decompresses with a
// cap on the output, decodes with limits on CBOR array, map and nesting
// sizes, keeps blobs in a map, puts their bytes back into the buffers of
// each events frame and checks the format's invariants, and only then hands
// out that frame's events. Every failure is one of four kinds, exported as
// sentinels for errors.Is: ErrNotTrace, ErrVersion, ErrCorrupt and
// ErrTruncated. A trace cut short yields all its complete events before
// ErrTruncated; ReadFile returns that partial trace along with the error.
//
// The reader is fuzzed (FuzzReader) and must never panic; testdata/v1 holds
// a frozen file that every future version must still read.
package tracefile
