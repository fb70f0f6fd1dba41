package trace

// FileObject is a file of the good environment that the recorded command
// read, mapped or executed, or only stat'ed when a package owns it (no
// call names those): its identity as record found it and, unless
// Why says otherwise, its whole content, stored in the trace as chunks
// (tracefile). Calls refer to it by ID (Call.Obj): the open that gave
// the program an fd on it, the execve that ran it.
type FileObject struct {
	ID uint32 `cbor:"1,keyasint" json:"id"` // 1-based; Call.Obj names it
	// Path is the file's absolute path as the program named it (resolved
	// against its cwd or dirfd); Resolved is where it led, with every
	// symbolic link followed (equal to Path when none was).
	Path     string `cbor:"2,keyasint" json:"path"`
	Resolved string `cbor:"3,keyasint,omitempty" json:"resolved,omitempty"`
	Size     int64  `cbor:"4,keyasint" json:"size"`
	Mode     uint32 `cbor:"5,keyasint" json:"mode"` // st_mode: type and permission bits
	UID      uint32 `cbor:"6,keyasint" json:"uid"`
	GID      uint32 `cbor:"7,keyasint" json:"gid"`
	Mtime    int64  `cbor:"8,keyasint" json:"mtime_ns"` // ns since the Unix epoch
	Dev      uint64 `cbor:"9,keyasint" json:"dev"`      // st_dev at record time
	Ino      uint64 `cbor:"10,keyasint" json:"ino"`     // st_ino at record time
	// SHA256 is the hash of the whole content (also when it is not
	// stored); zero when the file could not be read at all.
	SHA256 Hash `cbor:"11,keyasint" json:"sha256"`
	// Chunks are the content's pieces in order, each a content chunk of
	// the trace addressed by its SHA-256; empty when Why is set.
	Chunks []Hash `cbor:"12,keyasint,omitempty" json:"-"`
	// Why says why the content is not stored: "" (it is), ContentExcluded,
	// ContentOverBudget, ContentUnreadable.
	Why string `cbor:"13,keyasint,omitempty" json:"not_stored,omitempty"`
	// Package is the package that owns the file in the good
	// environment's package database: nil when record looked nothing up
	// (no database, the eBPF backend, traces written before it; traces
	// before issue 27 looked up only executables and shared libraries);
	// Name "" when the database holds no package owning it.
	Package *Package `cbor:"14,keyasint,omitempty" json:"package,omitempty"`
}

// Why a FileObject's content is not in the trace.
const (
	ContentExcluded   = "excluded"    // its path matches --exclude-content
	ContentOverBudget = "over-budget" // --max-content was spent on other files
	ContentUnreadable = "unreadable"  // record could not read it
)

// Stored reports whether the trace holds the file's content.
func (f *FileObject) Stored() bool { return f.Why == "" && (len(f.Chunks) > 0 || f.Size == 0) }
