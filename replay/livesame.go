package replay

import (
	"bytes"
	"slices"

	"github.com/envbisect/envbisect/trace"
)

// kept returns what Result.Live holds for live call live, matched with
// recorded call rec: rec itself when the two are the same call with the
// same answer, live otherwise. A run that executes a long trace matches
// most of its calls with recorded calls that answered the same: holding
// the recorded call instead of a copy of it lets the live one go (a run
// of a million calls held 400 MiB of them).
//
// The same: every field but those that number or time the call in its
// own run (Seq, TSeq, PID, TID, Enter, Exit) and Obj, the file object
// record kept of what the call opened, which only a recording sets (a
// live call's is 0): no reader of Result.Live takes them from a live
// call, so a comparison, an explanation or a rendering of rec gives what
// one of live would.
//
// A live call that differs is held, but what it has equal to rec (its
// paths, its buffers, its directories' states) is rec's: cloop's opens
// differ from the recorded ones only in the address of their path, and a
// run of a million calls held 40 MiB of copies of the paths.
func kept(rec, live *trace.Call) *trace.Call {
	if sameAnswer(rec, live) {
		return rec
	}
	share(rec, live)
	return live
}

// share makes the fields of live that are equal to rec's point to rec's
// strings and slices, letting live's own copies go. Neither call's
// contents change.
func share(rec, live *trace.Call) {
	if live.Path == rec.Path {
		live.Path = rec.Path
	}
	if live.Path2 == rec.Path2 {
		live.Path2 = rec.Path2
	}
	if len(live.Dirs) > 0 && slices.Equal(live.Dirs, rec.Dirs) {
		live.Dirs = rec.Dirs
	}
	if len(live.Mem) > 0 && slices.EqualFunc(live.Mem, rec.Mem, sameMem) {
		live.Mem = rec.Mem
		return
	}
	for i := range min(len(live.Mem), len(rec.Mem)) {
		if m, r := &live.Mem[i], rec.Mem[i]; len(m.Data) > 0 && bytes.Equal(m.Data, r.Data) {
			m.Data = r.Data
		}
	}
}

// sameAnswer reports whether calls a and b are the same call with the
// same answer: equal in every field but Seq, TSeq, PID, TID, Enter, Exit
// and Obj.
func sameAnswer(a, b *trace.Call) bool {
	return a.Nr == b.Nr && a.Ret == b.Ret && a.NoReturn == b.NoReturn && a.Denied == b.Denied &&
		a.Proc == b.Proc && a.Thread == b.Thread && a.Args == b.Args &&
		a.Path == b.Path && a.Path2 == b.Path2 && a.Gap == b.Gap &&
		slices.Equal(a.Dirs, b.Dirs) && slices.EqualFunc(a.Mem, b.Mem, sameMem)
}

// sameMem reports whether two captured buffers are equal in every field.
func sameMem(a, b trace.Mem) bool {
	return a.Arg == b.Arg && a.Part == b.Part && a.Dir == b.Dir && a.Flag == b.Flag && a.Entry == b.Entry &&
		a.Addr == b.Addr && a.Len == b.Len && a.Note == b.Note &&
		(a.Blob == nil) == (b.Blob == nil) && (a.Blob == nil || *a.Blob == *b.Blob) &&
		bytes.Equal(a.Data, b.Data)
}
