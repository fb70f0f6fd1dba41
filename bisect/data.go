package bisect

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// Limits of the data diff: lines of context and lines shown, bytes shown
// of binary data from the first difference.
const (
	diffContext = 3
	diffLines   = 40
	diffBytes   = 32
)

// keyed is an Out buffer with the name it goes by in a report.
type keyed struct {
	key string
	m   *trace.Mem
	// ctype is the C type the table gives the whole buffer ("struct
	// stat"), "" for a part or none.
	ctype string
}

// partNames name the pieces of an argument other than the whole.
var partNames = map[trace.Part]string{
	trace.PartIovData: "data", trace.PartName: "name", trace.PartControl: "control",
	trace.PartLen: "len", trace.PartStrings: "strings", trace.PartMsgLen: "msg_len",
}

// outBuffers returns the memory the kernel wrote for c (the Out
// buffers), by argument and part, named after the argument ("buf",
// "msg.name"; "arg2" when the table has no name for it).
func outBuffers(rows render.Rows, c *trace.Call) []keyed {
	row := rows.ByNr(int(c.Nr))
	var out []keyed
	for i := range c.Mem {
		m := &c.Mem[i]
		if m.Dir != trace.Out {
			continue
		}
		key := "arg" + strconv.Itoa(int(m.Arg))
		if int(m.Arg) < len(row.Args) && row.Args[m.Arg].Name != "" {
			key = row.Args[m.Arg].Name
		}
		if int(m.Arg) < len(row.Args) && row.Args[m.Arg].Kind.IsMmsghdr() {
			key += "[" + strconv.Itoa(int(m.Entry)) + "]" // one entry of an mmsghdr array
		}
		if m.Part != trace.PartWhole {
			p, ok := partNames[m.Part]
			if !ok {
				p = "part" + strconv.Itoa(int(m.Part))
			}
			key += "." + p
		}
		ctype := ""
		if int(m.Arg) < len(row.Args) && m.Part == trace.PartWhole && !row.Args[m.Arg].Kind.IsMmsghdr() {
			ctype = row.Args[m.Arg].Struct
		}
		out = append(out, keyed{key, m, ctype})
	}
	slices.SortStableFunc(out, func(a, b keyed) int {
		if a.m.Arg != b.m.Arg {
			return int(a.m.Arg) - int(b.m.Arg)
		}
		if a.m.Entry != b.m.Entry {
			return int(a.m.Entry) - int(b.m.Entry)
		}
		return int(a.m.Part) - int(b.m.Part)
	})
	return out
}

// newBuffer is m as a report shows it.
func newBuffer(m *trace.Mem) Buffer {
	b := Buffer{Len: m.Len, Encoding: "utf8", Truncated: m.Flag&trace.Truncated != 0,
		Excluded: m.Flag&trace.Excluded != 0, Fault: m.Flag&trace.Fault != 0}
	if align.IsText(m.Data) {
		b.Data = string(m.Data)
	} else {
		b.Data, b.Encoding = base64.StdEncoding.EncodeToString(m.Data), "base64"
	}
	return b
}

// dataDiff compares the Out buffers of the recorded call good and the
// live call here and describes the first that differs; nil when none
// does. A buffer one side lacks counts as empty when that side's call
// succeeded (a read that got 0 bytes may store nothing); when a side
// failed its error says more than its data, and nothing is compared.
// Buffers excluded from the recording or unreadable are not compared.
//
// A binary buffer of a struct the table lays out (struct stat, statx,
// rlimit...) is also decoded on both sides, as the trace's architecture
// (h) lays it out, and DataDiff.Fields lists the members that differ.
func dataDiff(rows render.Rows, h *trace.Header, good, here *trace.Call) *DataDiff {
	if good.Errno() != 0 || here.Errno() != 0 || good.NoReturn || here.NoReturn {
		return nil
	}
	gb, hb := outBuffers(rows, good), outBuffers(rows, here)
	find := func(bufs []keyed, key string) (*trace.Mem, string) {
		for _, b := range bufs {
			if b.key == key {
				return b.m, b.ctype
			}
		}
		return nil, ""
	}
	keys := make([]string, 0, len(gb)+len(hb))
	for _, b := range append(slices.Clone(gb), hb...) {
		if !slices.Contains(keys, b.key) {
			keys = append(keys, b.key)
		}
	}
	for _, key := range keys {
		gm, ctype := find(gb, key)
		bm, _ := find(hb, key)
		if d := compare(key, gm, bm); d != nil {
			if e, ok := listingDiff(ctype, gm, bm); ok {
				d.Entries = e
				return d
			}
			if !d.Text && ctype != "" && gm != nil && bm != nil && render.DecodesStruct(rows, h, ctype, gm.Data, bm.Data) {
				d.Struct = ctype
				d.Fields = render.StructDiff(rows, h, ctype, gm.Data, bm.Data)
			}
			return d
		}
	}
	return nil
}

// compare describes how buffer key differs between good and here (nil:
// absent), or returns nil when it does not or cannot be compared.
func compare(key string, good, here *trace.Mem) *DataDiff {
	var empty trace.Mem
	if good == nil {
		good = &empty
	}
	if here == nil {
		here = &empty
	}
	const uncomparable = trace.Excluded | trace.Fault
	if good.Flag&uncomparable != 0 || here.Flag&uncomparable != 0 {
		return nil
	}
	a, b := good.Data, here.Data
	if good.Len == here.Len && bytes.Equal(a, b) {
		return nil
	}
	d := &DataDiff{Buffer: key, GoodSize: good.Len, HereSize: here.Len, FirstDifference: firstDifference(a, b),
		Partial: (good.Flag|here.Flag)&trace.Truncated != 0}
	if align.IsText(a) && align.IsText(b) {
		d.Text = true
		d.Diff = unifiedDiff(a, b)
		return d
	}
	d.GoodBytes, d.HereBytes = excerpt(a, d.FirstDifference), excerpt(b, d.FirstDifference)
	d.GoodSHA256, d.HereSHA256 = fmt.Sprintf("%x", sha256.Sum256(a)), fmt.Sprintf("%x", sha256.Sum256(b))
	return d
}

// firstDifference returns the offset of the first byte where a and b
// differ, or the length of the shorter.
func firstDifference(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// excerpt quotes b from offset off.
func excerpt(b []byte, off int) string {
	if off >= len(b) {
		return "(end)"
	}
	return render.Quote(b[off:], diffBytes)
}

// unifiedDiff is a unified diff of the text a (good) and b (here), line
// by line (align.TextDiff: go-udiff's Myers diff over lines, so an
// unchanged line is context even where a byte-level diff would cut
// through it): "--- good", "+++ here", then hunks with diffContext lines
// of context, cut after diffLines lines ("... N more lines"). A line
// that does not end in a newline is kept as it is (no "\\ No newline"
// marker: the report shows lines).
func unifiedDiff(a, b []byte) []string {
	out := []string{"--- good", "+++ here"}
	for _, l := range align.TextDiff(a, b, diffContext, 0) {
		if !strings.HasPrefix(l, `\ No newline`) {
			out = append(out, l)
		}
	}
	if len(out) == 2 {
		return nil
	}
	if max := diffLines + 2; len(out) > max {
		more := len(out) - max
		out = append(out[:max], "... "+strconv.Itoa(more)+" more lines")
	}
	return out
}
