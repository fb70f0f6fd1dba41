package replay

import (
	"bytes"
	"slices"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// kept returns what Result.Live holds for live call live, matched with
// recorded call rec (row is the syscall table's row of both): rec itself
// when the two are the same call with the same answer, live otherwise. A
// run that executes a long trace matches most of its calls with recorded
// calls that answered the same: holding the recorded call instead of a
// copy of it lets the live one go (a run of a million calls held 400 MiB
// of them).
//
// The same: every field but those that number or time the call in its
// own run (Seq, TSeq, PID, TID, Enter, Exit) and Obj, the file object
// record kept of what the call opened, which only a recording sets (a
// live call's is 0); and but the address of a string the call passed
// (a path) whose bytes were captured and are equal (sameButStrings). No
// reader of Result.Live takes these from a live call, so a comparison,
// an explanation or a rendering of rec gives what one of live would:
//
//   - bisect compares live calls with recorded ones through align's
//     comparer, which leaves addresses out, or by return value, errno and
//     the bytes of their buffers (identicalHere, dataDiff, the DNS and
//     listing readers);
//   - the report renders a live call (Culprit.Here, the failed call of a
//     capability cause) with render.CallString, which shows a Path or
//     String argument as its captured string, its register only when
//     nothing was captured or the capture faulted or was excluded, and a
//     buffer's address only when it faulted.
//
// cloop's opens differ from the recorded ones in nothing but the address
// of their path (the stack lies 16 bytes lower in a run than in the
// recording): a locate run that executes its loop held a live call for
// each of them, 48 MB at a million calls.
//
// A live call that differs is held, but what it has equal to rec (its
// paths, its buffers, its directories' states) is rec's.
func kept(row *systable.Syscall, rec, live *trace.Call) *trace.Call {
	if sameAnswer(rec, live) || sameButStrings(row, rec, live) {
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

// capturedStrings returns a bit per argument of c (row's) that a
// rendering shows as the string it points to, never as its address: a
// Path or String argument whose string c captured whole (trace.PartWhole,
// In) and neither faulted nor excluded (render's decoder, case Path and
// String).
func capturedStrings(row *systable.Syscall, c *trace.Call) uint8 {
	if row == nil || row.Unknown {
		return 0
	}
	var bits uint8
	for i := range min(len(row.Args), len(c.Args)) {
		if k := row.Args[i].Kind; k != systable.Path && k != systable.String {
			continue
		}
		if m := c.MemOfDir(uint8(i), trace.PartWhole, trace.In); m != nil && m.Flag&(trace.Fault|trace.Excluded) == 0 {
			bits |= 1 << i
		}
	}
	return bits
}

// sameButStrings reports whether calls a and b (row's) are the same call
// with the same answer but for the addresses of strings both captured
// (capturedStrings): the argument's register and the Addr of its
// captured string. Every other field is compared as sameAnswer does.
func sameButStrings(row *systable.Syscall, a, b *trace.Call) bool {
	bits := capturedStrings(row, a)
	if bits == 0 || len(a.Mem) != len(b.Mem) {
		return false
	}
	if a.Nr != b.Nr || a.Ret != b.Ret || a.NoReturn != b.NoReturn || a.Denied != b.Denied ||
		a.Proc != b.Proc || a.Thread != b.Thread || a.Path != b.Path || a.Path2 != b.Path2 || a.Gap != b.Gap ||
		!slices.Equal(a.Dirs, b.Dirs) {
		return false
	}
	for i := range a.Args {
		if a.Args[i] != b.Args[i] && bits&(1<<i) == 0 {
			return false
		}
	}
	for j := range a.Mem {
		x, y := a.Mem[j], b.Mem[j]
		if x.Arg < 8 && bits&(1<<x.Arg) != 0 && x.Part == trace.PartWhole && x.Dir == trace.In {
			y.Addr = x.Addr // the string's address: b's own
		}
		if !sameMem(x, y) {
			return false
		}
	}
	return true
}
