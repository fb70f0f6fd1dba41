package replay

import (
	"reflect"
	"testing"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// ownRun are the fields of a call that number or time it in its own run,
// and the file object only a recording names: the only ones in which a
// live call may differ from the recorded call Result.Live holds in its
// place (kept).
var ownRun = map[string]bool{"Seq": true, "TSeq": true, "PID": true, "TID": true, "Enter": true, "Exit": true, "Obj": true}

// sampleCall is a call with every field set, and a buffer with every
// field set.
func sampleCall() *trace.Call {
	h := trace.Hash{1}
	return &trace.Call{
		Seq: 7, Proc: 1, Thread: 1, TSeq: 3, PID: 100, TID: 100, Nr: 0, Args: [6]uint64{3, 0x1000, 98304},
		Ret: 10, NoReturn: false, Enter: 5, Exit: 6, Path: "/etc/app.conf", Path2: "/x", Gap: 0, Denied: false, Obj: 2,
		Dirs: []trace.DirStat{{Path: "/etc", Mode: 0o40755}},
		Mem: []trace.Mem{{Arg: 1, Part: trace.PartWhole, Dir: trace.Out, Flag: 0, Entry: 0, Addr: 0x1000, Len: 10,
			Data: []byte("mode=good\n"), Blob: &h, Note: "n"}},
	}
}

// changed sets field i of struct v to another value.
func changed(t *testing.T, v reflect.Value, i int) {
	t.Helper()
	f := v.Field(i)
	switch f.Kind() {
	case reflect.Bool:
		f.SetBool(!f.Bool())
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.SetInt(f.Int() + 1)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f.SetUint(f.Uint() + 1)
	case reflect.String:
		f.SetString(f.String() + "~")
	case reflect.Array:
		f.Index(0).SetUint(f.Index(0).Uint() + 1)
	case reflect.Slice:
		switch e := f.Type().Elem(); e.Kind() {
		case reflect.Uint8:
			f.SetBytes(append([]byte("~"), f.Bytes()...))
		default:
			f.Set(reflect.Append(reflect.MakeSlice(f.Type(), 0, f.Len()+1), reflect.New(e).Elem()))
		}
	case reflect.Pointer:
		f.Set(reflect.New(f.Type().Elem()))
	default:
		t.Fatalf("field %s of %s: kind %s not handled by the test; teach it, and sameAnswer the field",
			v.Type().Field(i).Name, v.Type(), f.Kind())
	}
}

// TestSameAnswerEveryField: a live call that differs from the recorded
// one in any field but those of its own run is not replaced by the
// recorded call in Result.Live, and one that differs only there is. A
// field added to trace.Call or trace.Mem fails this test until
// sameAnswer compares it.
func TestSameAnswerEveryField(t *testing.T) {
	rec := sampleCall()
	if got := kept(nil, rec, sampleCall()); got != rec {
		t.Fatal("an equal live call was kept instead of the recorded one")
	}
	ct := reflect.TypeFor[trace.Call]()
	for i := range ct.NumField() {
		live := sampleCall()
		changed(t, reflect.ValueOf(live).Elem(), i)
		name := ct.Field(i).Name
		if got, want := kept(nil, rec, live) == rec, ownRun[name]; got != want {
			t.Errorf("live call differing in %s: recorded call kept %v, want %v", name, got, want)
		}
	}
	mt := reflect.TypeFor[trace.Mem]()
	for i := range mt.NumField() {
		live := sampleCall()
		changed(t, reflect.ValueOf(&live.Mem[0]).Elem(), i)
		if kept(nil, rec, live) == rec {
			t.Errorf("live call whose buffer differs in %s: the recorded call was kept", mt.Field(i).Name)
		}
	}
	live := sampleCall()
	h := trace.Hash{2}
	live.Mem[0].Blob = &h
	if kept(nil, rec, live) == rec {
		t.Error("live call whose buffer has another blob address: the recorded call was kept")
	}
}

// openCall is cloop's open as recorded: openat(AT_FDCWD, path, flags)
// with the path captured, and the row of openat.
func openCall(t *testing.T) (*systable.Syscall, *trace.Call) {
	t.Helper()
	tab, err := systable.New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	row, ok := tab.ByName("openat")
	if !ok {
		t.Fatal("no openat in the amd64 table")
	}
	c := &trace.Call{Seq: 9, Proc: 1, Thread: 1, TSeq: 4, PID: 100, TID: 100, Nr: uint32(row.Nr),
		Args: [6]uint64{uint64(0xffffff9c), 0x7ffd1000, 0x80000}, Ret: 3, Enter: 5, Exit: 6, Path: "/tmp/b/small", Obj: 2,
		Dirs: []trace.DirStat{{Path: "/tmp/b", Mode: 0o40755}},
		Mem:  []trace.Mem{{Arg: 1, Part: trace.PartWhole, Dir: trace.In, Addr: 0x7ffd1000, Len: 13, Data: []byte("/tmp/b/small\x00")}}}
	return row, c
}

// TestSameButStringAddresses: a live open that differs from the recorded
// one only in the address of the path it passed, whose bytes both
// captured (cloop's opens: the stack lies lower in a run), is held as the
// recorded call; one that differs in any other field (but those of its
// own run), or whose path was not captured whole, is not. A field added
// to trace.Call fails this test until sameButStrings compares it.
func TestSameButStringAddresses(t *testing.T) {
	row, rec := openCall(t)
	_, live := openCall(t)
	live.Args[1] -= 16
	live.Mem[0].Addr -= 16
	if kept(row, rec, live) != rec {
		t.Fatal("a live open differing only in its path's address was held instead of the recorded one")
	}
	if kept(nil, rec, live) == rec {
		t.Error("without the syscall's row, a live open with another address was held as the recorded one")
	}
	ct := reflect.TypeFor[trace.Call]()
	for i := range ct.NumField() {
		_, live := openCall(t)
		live.Args[1] -= 16
		live.Mem[0].Addr -= 16
		changed(t, reflect.ValueOf(live).Elem(), i) // Args: the dirfd, argument 0
		name := ct.Field(i).Name
		if got, want := kept(row, rec, live) == rec, ownRun[name]; got != want {
			t.Errorf("live open at another address differing in %s: recorded call kept %v, want %v", name, got, want)
		}
	}
	mt := reflect.TypeFor[trace.Mem]()
	for i := range mt.NumField() {
		if mt.Field(i).Name == "Addr" {
			continue
		}
		_, live := openCall(t)
		live.Args[1] -= 16
		changed(t, reflect.ValueOf(&live.Mem[0]).Elem(), i)
		if kept(row, rec, live) == rec {
			t.Errorf("live open whose path buffer differs in %s: the recorded call was kept", mt.Field(i).Name)
		}
	}
	for what, f := range map[string]func(c *trace.Call){
		"faulted":      func(c *trace.Call) { c.Mem[0].Flag = trace.Fault },
		"excluded":     func(c *trace.Call) { c.Mem[0].Flag = trace.Excluded },
		"not captured": func(c *trace.Call) { c.Mem = nil },
	} {
		_, r := openCall(t)
		_, live := openCall(t)
		f(r)
		f(live)
		live.Args[1] -= 16
		if kept(row, r, live) == r {
			t.Errorf("path %s: a live open at another address was held as the recorded one", what)
		}
	}
	_, live = openCall(t)
	live.Args[1] -= 16
	live.Args[2] = 0 // other flags
	if kept(row, rec, live) == rec {
		t.Error("a live open at another address with other flags was held as the recorded one")
	}
}
