package align

import (
	"bytes"
	"sort"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Options control what Diff and Comparer compare.
type Options struct {
	// AllFields compares what differs between any two runs and is left
	// out by default: time-like results (clock_gettime, gettimeofday,
	// time, times, rusage), random data (getrandom, /dev/urandom),
	// counters under /proc, inode and device numbers, times and block
	// counts in struct stat, the order of directory entries, addresses (sigaction handlers), ports the
	// kernel picked, fd numbers inside structs, the environment passed to
	// execve, and address-like auxv entries.
	AllFields bool
	// ListingOrder compares directory entries (getdents) in order, not
	// as sets: locate's observation of this environment, where a program
	// that keeps the listing's order (an archiver) sees another order as
	// another answer. The first position where the names differ is
	// DataDiff.Offset counted in entries.
	ListingOrder bool
	// Window bounds the resynchronisation of call sequences (see Align);
	// 0 means DefaultWindow.
	Window int
	// Echo says where the echoed fields of an echo protocol (systable's
	// EchoProtocol: netlink's nlmsg_seq and nlmsg_pid, a DNS id) lie in a
	// call of run A; the matched call of run B is read at the same place.
	// Those bytes are left out of the comparison unless AllFields. nil:
	// none (depgraph's Graph.EchoOf answers it).
	Echo EchoOf
	// Fill, when set, reads in the bytes of the buffers of call c (of run
	// B when inB) that the trace was read without (Mem.Blob set, Data nil:
	// tracefile.ReadOptions.KeepData). It is called only for a pair of
	// buffers whose addresses differ: buffers with the same Blob address,
	// length and flags hold the same bytes and compare equal unread.
	Fill func(inB bool, c *trace.Call)
}

// EchoOf returns the echo protocol and stream position of buffer m of
// call a, a call of run A, when m is data a socket that speaks one sends
// or receives; ok is false otherwise.
type EchoOf func(a *trace.Call, m *trace.Mem) (p *systable.EchoProtocol, at systable.EchoState, ok bool)

// CallDiff is how two aligned calls differ.
type CallDiff struct {
	Ret  bool       // return value or error differs (or one never returned)
	Data []DataDiff // memory the kernel wrote differs
	Sent []DataDiff // memory the program passed in differs
}

// DataDiff is one differing buffer of two aligned calls.
type DataDiff struct {
	Arg    uint8
	Part   trace.Part
	Entry  uint32 // the struct mmsghdr of an array (sendmmsg, recvmmsg); 0 otherwise
	Dir    trace.Dir
	Struct string // the C type, "" for plain bytes
	LenA   uint64 // length as the kernel used it (trace.Mem.Len); 0 when absent
	LenB   uint64
	// Offset is the first differing byte of a byte-by-byte comparison, -1
	// when the buffer was compared by fields or entries or is absent on one
	// side.
	Offset int
	Fields []FieldDiff // structs: the differing fields
	// OnlyA and OnlyB are directory entries found on one side only
	// (getdents); "name/" is a directory.
	OnlyA, OnlyB []string
	// Order: the same directory entries in another order (Options.
	// ListingOrder); Offset is the first differing entry.
	Order bool
	// Note says why a comparison was partial: contents excluded or
	// truncated at record time, memory that could not be read.
	Note string
	A, B []byte // the data of each side, nil when absent
}

// FieldDiff is one differing struct field.
type FieldDiff struct {
	Name string
	A, B string
}

// Comparer compares aligned calls of two runs after normalising what
// differs between any two runs: kernel pids (through the process match),
// addresses, fd numbers, and by default times, randomness, inode and
// device numbers (see Options.AllFields).
type Comparer struct {
	rows   Rows
	layout *layout
	a, b   *Tree
	m      *Mapping
	ka, kb *Keyer
	all    bool
	order  bool // Options.ListingOrder
	// dirAttrs: a directory's size and link count are not compared
	// (NewReplayComparer).
	dirAttrs bool
	echo     EchoOf // Options.Echo
	fill     func(inB bool, c *trace.Call)
}

// NewComparer returns a Comparer for calls of trees a and b (of traces
// of architecture arch) matched by m and keyed by ka and kb.
func NewComparer(rows Rows, arch string, a, b *Tree, m *Mapping, ka, kb *Keyer, o Options) *Comparer {
	return &Comparer{rows: rows, layout: layoutOf(arch), a: a, b: b, m: m, ka: ka, kb: kb, all: o.AllFields,
		order: o.ListingOrder, echo: o.Echo, fill: o.Fill}
}

// NewReplayComparer returns a Comparer for a recorded call (A) and the
// live result of the same call in a replay run (B), the pair locate
// compares to see what differs here. There is no process match: kernel
// ids compare equal (processes are the program's, not the environment),
// and a path the kernel hands back is compared after keying the live
// one as if under the recorded working directory (kb: NewKeyer(rows,
// liveCwd, recordedCwd)).
func NewReplayComparer(rows Rows, arch string, kb *Keyer, o Options) *Comparer {
	return &Comparer{rows: rows, layout: layoutOf(arch), ka: NewKeyer(rows, "", ""), kb: kb, all: o.AllFields,
		order: o.ListingOrder, dirAttrs: !o.AllFields, echo: o.Echo}
}

// Compare returns how x (of run A) and y (of run B), two calls aligned
// as the same call, differ, or nil when they do not.
func (c *Comparer) Compare(x, y *trace.Call) *CallDiff {
	row := c.rows.ByNr(int(x.Nr))
	d := &CallDiff{Ret: !c.sameRet(row, x, y)}
	if x.Errno() == 0 && y.Errno() == 0 && !x.NoReturn && !y.NoReturn {
		d.Data = c.memDiffs(row, x, y, trace.Out)
	}
	d.Sent = c.memDiffs(row, x, y, trace.In)
	if !d.Ret && len(d.Data) == 0 && len(d.Sent) == 0 {
		return nil
	}
	return d
}

// SamePID reports whether kernel id a of run A and b of run B name the
// same (matched) thread or process. Ids of neither trace (a parent
// outside the traced tree, 0) are the same to each other.
func (c *Comparer) SamePID(a, b int64) bool {
	if c.a == nil || c.b == nil {
		return true // NewReplayComparer: no process match
	}
	ta, okA := c.a.ThreadOfTID(a)
	tb, okB := c.b.ThreadOfTID(b)
	switch {
	case okA && okB:
		m, ok := c.m.Threads[ta]
		return ok && m == tb
	case !okA && !okB:
		return true
	}
	return false
}

func (c *Comparer) sameRet(row *systable.Syscall, x, y *trace.Call) bool {
	if x.NoReturn || y.NoReturn {
		return x.NoReturn == y.NoReturn
	}
	if ex, ey := x.Errno(), y.Errno(); ex != 0 || ey != 0 {
		return ex == ey
	}
	if c.all {
		return x.Ret == y.Ret
	}
	if row.VolatileRet {
		return true
	}
	switch row.Ret {
	case systable.Hex, systable.FD: // addresses; fd numbers (what they refer to is compared by later calls' keys)
		return true
	case systable.PID:
		if row.WaitsAnyChild(x.Args) && row.WaitsAnyChild(y.Args) {
			return c.sameTracedness(x.Ret, y.Ret)
		}
		return c.SamePID(x.Ret, y.Ret)
	}
	return x.Ret == y.Ret
}

// sameTracedness reports whether kernel ids a and b are both ids of
// traced threads, or both not.
func (c *Comparer) sameTracedness(a, b int64) bool {
	if c.a == nil || c.b == nil {
		return true
	}
	_, okA := c.a.ThreadOfTID(a)
	_, okB := c.b.ThreadOfTID(b)
	return okA == okB
}

type memKey struct {
	arg   uint8
	part  trace.Part
	entry uint32 // the struct mmsghdr of an array (sendmmsg, recvmmsg)
}

// memDiffs compares the buffers of direction dir.
func (c *Comparer) memDiffs(row *systable.Syscall, x, y *trace.Call, dir trace.Dir) []DataDiff {
	var keys []memKey
	seen := map[memKey]bool{}
	for _, call := range []*trace.Call{x, y} {
		for i := range call.Mem {
			m := &call.Mem[i]
			k := memKey{m.Arg, m.Part, m.Entry}
			if m.Dir != dir || seen[k] {
				continue
			}
			seen[k] = true
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].arg != keys[j].arg {
			return keys[i].arg < keys[j].arg
		}
		if keys[i].entry != keys[j].entry {
			return keys[i].entry < keys[j].entry
		}
		return keys[i].part < keys[j].part
	})
	var out []DataDiff
	for _, k := range keys {
		if !c.compared(row, x, k, dir) {
			continue
		}
		if d, ok := c.memDiff(row, x.MemOfEntry(k.arg, k.part, dir, k.entry), y.MemOfEntry(k.arg, k.part, dir, k.entry), x, y, k, dir); !ok {
			out = append(out, d)
		}
	}
	return out
}

// compared reports whether a buffer takes part in the comparison.
func (c *Comparer) compared(row *systable.Syscall, x *trace.Call, k memKey, dir trace.Dir) bool {
	var a *systable.Arg
	if int(k.arg) < len(row.Args) {
		a = &row.Args[k.arg]
	}
	if dir == trace.Out {
		if c.all {
			return true
		}
		if row.ArgVolatile(int(k.arg)) || volatilePath(c.ka.Path(x.Path)) {
			return false
		}
		// Control messages carry fd numbers (SCM_RIGHTS) and credentials.
		return k.part != trace.PartControl
	}
	// In: what the program sent. Paths are part of the key already; the
	// program's own structs (sigaction, timespec) hold addresses and times.
	if a == nil {
		return c.all
	}
	switch a.Kind {
	case systable.InIovec, systable.String:
		return true
	case systable.InBuf:
		return c.all || a.Struct == "" || systable.StructOf(a.Struct).Is == systable.StructSockaddr
	case systable.InMsghdr, systable.InMmsghdr:
		return c.all || k.part == trace.PartIovData || k.part == trace.PartName
	case systable.StrArray:
		return c.all || a.Holds != systable.HoldsEnviron // the environment is compared as start events
	}
	return c.all
}

// memDiff compares one buffer; ok is true when it does not differ.
func (c *Comparer) memDiff(row *systable.Syscall, ma, mb *trace.Mem, x, y *trace.Call, k memKey, dir trace.Dir) (d DataDiff, ok bool) {
	d = DataDiff{Arg: k.arg, Part: k.part, Entry: k.entry, Dir: dir, Offset: -1}
	if int(k.arg) < len(row.Args) {
		d.Struct = row.Args[k.arg].Struct
	}
	switch k.part {
	case trace.PartName:
		d.Struct = "struct sockaddr"
	case trace.PartLen:
		d.Struct = "socklen_t"
	case trace.PartMsgLen:
		d.Struct = "unsigned int"
	case trace.PartIovData, trace.PartStrings, trace.PartControl:
		d.Struct = ""
	}
	if ma != nil {
		d.LenA, d.A = ma.Len, ma.Data
	}
	if mb != nil {
		d.LenB, d.B = mb.Len, mb.Data
	}
	if ma == nil || mb == nil {
		return d, false
	}
	if ma.Flag&trace.Fault != 0 || mb.Flag&trace.Fault != 0 {
		d.Note = "memory could not be read"
		return d, ma.Flag&trace.Fault == mb.Flag&trace.Fault && ma.Len == mb.Len
	}
	if ma.Flag&trace.Excluded != 0 || mb.Flag&trace.Excluded != 0 {
		d.Note = "contents not recorded (--exclude-content)"
		return d, ma.Len == mb.Len
	}
	if ma.Blob != nil && mb.Blob != nil && *ma.Blob == *mb.Blob && ma.Len == mb.Len && ma.Flag == mb.Flag {
		return d, true // the same bytes
	}
	if c.fill != nil && (unread(ma) || unread(mb)) {
		c.fill(false, x)
		c.fill(true, y)
		d.A, d.B = ma.Data, mb.Data
	}
	a, b := ma.Data, mb.Data
	if ma.Flag&trace.Truncated != 0 || mb.Flag&trace.Truncated != 0 {
		d.Note = "compared up to the bytes recorded (truncated)"
		n := min(len(a), len(b))
		a, b = a[:n], b[:n]
		if ma.Len != mb.Len {
			d.Offset = firstDiff(a, b)
			return d, false
		}
	}
	a, b = c.maskEcho(x, ma, a, b)
	if dir == trace.Out && !c.all && row.ArgHolds(int(k.arg)) == systable.HoldsPath {
		// A path: what a /proc/self/fd link names holds inode numbers.
		pa, pb := c.ka.Path(string(bytes.TrimRight(a, "\x00"))), c.kb.Path(string(bytes.TrimRight(b, "\x00")))
		if pa == pb {
			return d, true
		}
	}
	if st := systable.StructOf(d.Struct); !c.all && (st.Is == systable.StructDirent64 || st.Is == systable.StructDirent) {
		ea, okA := dirEntries(a, st.Is == systable.StructDirent64)
		eb, okB := dirEntries(b, st.Is == systable.StructDirent64)
		if okA && okB {
			d.OnlyA, d.OnlyB = setDiff(ea, eb)
			same := len(d.OnlyA) == 0 && len(d.OnlyB) == 0
			if same && c.order {
				if i := firstDiffName(ea, eb); i >= 0 {
					d.Offset, d.Order = i, true
					return d, false
				}
			}
			return d, same
		}
	}
	dec := decoderFor(d.Struct)
	if row.ArgHolds(int(k.arg)) == systable.HoldsWaitStatus {
		dec = wstatusFields
	}
	if dec != nil {
		fa, fb := dec(c.layout, a), dec(c.layout, b)
		if fa != nil && fb != nil && len(fa) == len(fb) {
			anyChild := row.WaitsAnyChild(x.Args) && row.WaitsAnyChild(y.Args)
			dirs := c.dirAttrs && c.isDir(d.Struct, a) && c.isDir(d.Struct, b)
			for i := range fa {
				if dirs && dirAttrFields[fa[i].name] {
					continue
				}
				if !c.sameField(fa[i], fb[i], anyChild) {
					d.Fields = append(d.Fields, FieldDiff{Name: fa[i].name, A: fa[i].val, B: fb[i].val})
				}
			}
			return d, len(d.Fields) == 0
		}
	}
	if bytes.Equal(a, b) && ma.Len == mb.Len {
		return d, true
	}
	d.Offset = firstDiff(a, b)
	return d, false
}

// sameField compares two decoded fields; anyChild says pids are those of
// whichever child ended first (see systable's WaitsAnyChild).
func (c *Comparer) sameField(a, b field, anyChild bool) bool {
	switch {
	case a.name != b.name:
		return false
	case a.kind == volatile && !c.all:
		return true
	case a.kind == pidField && b.kind == pidField && !c.all && anyChild:
		return c.sameTracedness(a.pid, b.pid)
	case a.kind == pidField && b.kind == pidField && !c.all:
		return c.SamePID(a.pid, b.pid)
	}
	return a.val == b.val
}

// firstDiff returns the first offset at which a and b differ, or the
// shorter length when one is a prefix of the other.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// dirAttrFields are the fields of struct stat and statx that a
// directory's file system decides (Comparer.dirAttrs).
var dirAttrFields = map[string]bool{"st_size": true, "st_nlink": true, "stx_size": true, "stx_nlink": true}

// isDir reports whether b, a struct stat or statx of type st, is a
// directory's.
func (c *Comparer) isDir(st string, b []byte) bool {
	var mode systable.Field
	switch t := systable.StructOf(st); {
	case t.Is == systable.StructStat && c.layout != nil:
		mode = c.layout.stat.Field("st_mode")
	case t.Is == systable.StructStatx:
		mode = t.Field("stx_mode")
	default:
		return false
	}
	return len(b) >= mode.Off+mode.Size && mode.Uint(b)&unix.S_IFMT == unix.S_IFDIR
}

// firstDiffName returns the first position at which the name lists a
// and b differ, -1 when they are equal.
func firstDiffName(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// setDiff returns the names in a but not b and in b but not a, sorted.
func setDiff(a, b []string) (onlyA, onlyB []string) {
	ca := map[string]int{}
	for _, s := range a {
		ca[s]++
	}
	for _, s := range b {
		if ca[s] > 0 {
			ca[s]--
		} else {
			onlyB = append(onlyB, s)
		}
	}
	for s, n := range ca {
		for ; n > 0; n-- {
			onlyA = append(onlyA, s)
		}
	}
	sort.Strings(onlyA)
	sort.Strings(onlyB)
	return onlyA, onlyB
}

// maskEcho blanks the echoed fields of an echo protocol's request or
// reply in a and b, the data of buffer m of call x and of its match: the
// id a program made up differs from run to run, what it asked and what
// it was answered must not.
func (c *Comparer) maskEcho(x *trace.Call, m *trace.Mem, a, b []byte) ([]byte, []byte) {
	if c.echo == nil || c.all {
		return a, b
	}
	p, at, ok := c.echo(x, m)
	if !ok {
		return a, b
	}
	sa, _ := p.Spans(at, a)
	sb, _ := p.Spans(at, b)
	return systable.MaskEcho(a, sa), systable.MaskEcho(b, sb)
}

// unread reports whether m's bytes were left in the trace file
// (Options.Fill).
func unread(m *trace.Mem) bool {
	return m.Blob != nil && m.Data == nil && m.Len > 0
}
