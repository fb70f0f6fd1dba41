package trace

import "crypto/sha256"

// Dir says when a buffer was captured.
type Dir uint8

const (
	In  Dir = 1 // read at entry: data the program passed to the kernel
	Out Dir = 2 // read at exit: data the kernel wrote into the program
)

// Part names which piece of an argument a Mem holds, for arguments that
// point to more than one buffer.
type Part uint8

const (
	PartWhole   Part = 0 // the buffer the argument points to
	PartIovData Part = 1 // concatenated data of an iovec array (readv, writev, msghdr)
	PartName    Part = 2 // msghdr.msg_name, or the sockaddr of recvfrom/sendto/accept
	PartControl Part = 3 // msghdr.msg_control
	PartLen     Part = 4 // a value-result length (socklen_t) written back by the kernel
	PartStrings Part = 5 // a NULL-terminated array of strings (execve argv/envp), each NUL-terminated, concatenated
	PartMsgLen  Part = 6 // mmsghdr.msg_len of entry Entry (sendmmsg, recvmmsg): 4 bytes the kernel wrote
)

// MemFlag qualifies a captured buffer.
type MemFlag uint8

const (
	// Excluded: the buffer belongs to a path matched by --exclude-content;
	// Len is kept, Data is empty.
	Excluded MemFlag = 1 << iota
	// Truncated: only the first len(Data) of Len bytes were stored.
	Truncated
	// Fault: the memory could not be read (EFAULT, unmapped); Data is empty.
	Fault
	// Lost: some of the bytes were captured but never reached the trace
	// (the eBPF recorder's ring buffer was full); Data holds what arrived,
	// which may have holes of zeros, and must not be replayed.
	Lost
)

// Hash is the content address of a stored buffer: SHA-256 of its bytes.
type Hash [sha256.Size]byte

// Mem is one captured region of user memory.
type Mem struct {
	Arg  uint8   `cbor:"1,keyasint"`           // argument index 0..5
	Part Part    `cbor:"2,keyasint,omitempty"` // which piece of that argument
	Dir  Dir     `cbor:"3,keyasint"`
	Flag MemFlag `cbor:"6,keyasint,omitempty"`
	// Entry is the index of the struct mmsghdr the memory belongs to, in
	// the array of a sendmmsg or recvmmsg; 0 for every other argument.
	// Each entry's msghdr has its own PartName, PartIovData and
	// PartControl, and its msg_len a PartMsgLen. (The small fields come
	// first, out of their keys' order, so that they share a word: a Mem
	// is 72 bytes, not 88.)
	Entry uint32 `cbor:"9,keyasint,omitempty"`
	Addr  uint64 `cbor:"4,keyasint,omitempty"` // start address in the tracee
	Len   uint64 `cbor:"5,keyasint"`           // length of the region as the kernel used it
	// Data holds the bytes. The trace writer moves large buffers out of
	// line into content-addressed blobs and sets Blob; the reader puts
	// them back, so readers of a trace always see Data filled.
	Data []byte `cbor:"7,keyasint,omitempty"`
	Blob *Hash  `cbor:"8,keyasint,omitempty"`
	// Note says why an Excluded buffer was dropped when it is not the
	// content of an excluded path's own call: "excluded: carries content
	// of /src/key.pem", "redacted: carries the value of GITHUB_TOKEN".
	Note string `cbor:"20,keyasint,omitempty"`
}
