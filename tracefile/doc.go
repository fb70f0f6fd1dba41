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
// Create opens a new file 0600 beside the output (output.go: written
// there, renamed over the output by Close or Abort, never following a
// link, replacing only a trace unless told) and writes the preamble and
// header at once, so an unwritable destination fails before the command
// runs. Each
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
// cap on the output (a zstd frame declaring more than its stored bytes can
// decode to is refused before decoding, and the decoder's cap follows the
// stored size: zstdbound.go), decodes with limits on CBOR array, map and nesting
// sizes, keeps blobs in a map, puts their bytes back into the buffers of
// each events frame and checks the format's invariants, and only then hands
// out that frame's events. Every failure is one of four kinds, exported as
// sentinels for errors.Is: ErrNotTrace, ErrVersion, ErrCorrupt and
// ErrTruncated. A trace cut short yields all its complete events before
// ErrTruncated; ReadFile returns that partial trace along with the error.
// Only a trace whose frames stop is cut short: a frame whose length runs
// past the end is a damaged length, not a cut, when its checksum matches
// the bytes there are or the file still ends with a whole end frame
// (overrun.go), and a payload ending inside a CBOR or zstd item of a
// whole frame is corrupt. Process events are checked against the
// processes earlier events introduced (procs.go), by the writer too.
//
// # File objects (format version 2)
//
// The good environment's files are stored as chunks of at most 4 MiB,
// each in a chunk frame addressed by its SHA-256 and written once per
// trace, then one file frame per file (CBOR trace.FileObject: identity,
// hash, chunk list). A ContentWriter (NewContentWriter) does this from a
// goroutine of its own: it reads, hashes and compresses with its own
// encoder and scratch space, and holds the Writer's mutex only to reserve
// a chunk's address and to write a finished frame, so file contents go
// into the trace between event batches without slowing the tracer's
// writer. It puts a chunk's address in a zstd frame of its own, ahead of
// the bytes', and compresses chunks at Options.ContentCompression (zstd's
// fastest level by default). Blobs and chunks share one address space:
// a chunk whose bytes are already a blob (a read of a whole file) is not
// written again, and a buffer whose bytes are already a chunk refers to
// it instead of writing a blob; the reader decodes such a chunk when it
// fills in the event. A file of one chunk is hashed once: its SHA-256 is
// its chunk's address. Large content frames are handed to the kernel's
// writeback as they are written (sync_file_range on Linux), so that
// Close's fsync does not wait for all of them at the end.
//
// # The content cache
//
// ContentCache (contentcache.go) keeps, across recordings, the chunk
// frames that storing a file wrote: StoreFileEntry returns them as a
// CacheEntry (cacheentry.go: for a trace Create made, only where the
// frames are in the trace file, so an entry costs no memory until it is
// put), ContentCache.Put writes it to one file per entry (mode
// 0600 in a 0700 directory, made by the first Put), named by the SHA-256 of its CacheKey
// (device, inode, size, mtime and ctime of the file version: a write
// changes the ctime, which no user can set, so a changed file misses).
// ContentCache.Get reads an entry back and verifies it before use: its
// CRC-32C over everything, its magic and format version, the whole key
// (not only the name), the chunk count against the size, each frame's
// type and length, and the address inside each chunk frame; an entry
// that fails is reported (ErrCacheEntryRefused), and the caller stores
// the file from its bytes. StoreEntry then copies the
// frames into the trace as they are (a chunk the trace holds is not
// written twice) and takes the size and hash from the entry, so a
// repeated recording reads, hashes and compresses nothing of a file it
// stored before. Trim keeps the cache within its bound, least recently
// used entries first (MarkUsed marks a hit as a use). Reading and
// writing are apart: OpenContentCache and Get create, remove and touch
// nothing, and the changes (Put, MarkUsed, Drop, Trim;
// contentcache_write.go) are the caller's to make when it chooses, so
// that a recorder leaves a cache in the command's view as it is while the
// command runs. The checksums find
// damage, not forgery: whoever can write the cache directory can put
// wrong content under a right key, as they could change the files.
//
// The reader never loads chunks into memory: at a chunk frame it checks
// the checksum, decompresses only the 32-byte address and remembers the
// frame's offset, length and checksum (content.go). OpenContent reads a
// file's chunks back from the trace by offset (ReadFile's Trace reopens
// its path for each reader; a Reader uses the io.ReaderAt it reads from,
// or keeps the stored chunk bytes when it has none), checks each frame
// again, decompresses it, checks its address, and at the end the file's
// size and SHA-256, so damage is found when the content is used
// (VerifyContent reads it all). Version 1 files are read as before and
// hold no file objects.
//
// # Reading without the contents (ReadOptions)
//
// ReadOptions.KeepData lets a caller that needs few buffers' bytes (deps
// and diff: depgraph.DataUsed keeps structs, paths and sockets' messages,
// not files' contents) read a trace without holding every blob: at a blob
// frame the reader checks its address and remembers where it is
// (contents.blobRefs, as for chunks), fills in the buffers KeepData keeps
// by reading their blob again by offset (checksum and address checked
// again), and leaves the others with Blob and Len and no Data;
// Trace.FillData reads those in later for the calls a report prints, and
// Reader.FillData for a call of a Reader still open (diff compares the
// calls of two traces read side by side, filling in the buffers whose
// addresses differ).
// The reader also holds one copy of each call path (up to 65,536 distinct
// ones), not one per call.
//
// # Calls left in the file (Store)
//
// OpenStore reads a trace once, as ReadFile does (every frame checked,
// blobs remembered by offset as with KeepData), and keeps no event: an
// index of its events frames (offset, size, first event, calls, lowest
// and highest seq; a frame holds up to maxFrameEvents events, a few
// hundred in a ptrace recording, compressed as a whole), the number of
// calls of each thread, and the Trace without its Events (header,
// start, end, file objects). Store.Call finds a call's frame by binary
// search, decodes it again through a Reader of its own over the file
// (checksum, zstd, CBOR, blobs' bytes read back by offset into a cache
// of at most 16 MiB) and keeps the last few decoded frames (at most 8,
// and 32,768 events): replay's runs read each thread's calls in order,
// which that cache serves. Store.Each is an in-order pass that decodes
// frame by frame without filling the cache. A trace cut short makes a
// Store of its complete frames, with ErrTruncated as ReadFile; a frame
// that no longer reads back as it did (the file changed since) is an
// error naming the file, never another call. A call from a Store may be
// decoded anew each time it is asked for: callers compare calls by seq.
//
// The reader is fuzzed (FuzzReader, file objects' content included) and
// must never panic; testdata/v1 and testdata/v2 hold frozen files that
// every future version must still read.
package tracefile
