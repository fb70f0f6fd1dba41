package render

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// TestStructDiff: two struct stat buffers of amd64 that differ in mode,
// owner, size and inode: the mode, owner and size are listed as show
// prints them, the inode (volatile) is not, nor the members that agree.
func TestStructDiff(t *testing.T) {
	st, ok := systable.StatStruct("amd64")
	if !ok {
		t.Fatal("no struct stat layout for amd64")
	}
	mk := func(mode, uid, size, ino uint64) []byte {
		b := make([]byte, st.Size)
		set := func(name string, v uint64) {
			f := st.Field(name)
			switch f.Size {
			case 4:
				binary.LittleEndian.PutUint32(b[f.Off:], uint32(v))
			case 8:
				binary.LittleEndian.PutUint64(b[f.Off:], v)
			}
		}
		set("st_mode", mode)
		set("st_uid", uid)
		set("st_size", size)
		set("st_ino", ino)
		set("st_nlink", 2)
		return b
	}
	h := &trace.Header{Arch: "amd64"}
	got := StructDiff(nil, h, "struct stat", mk(0o40755, 0, 4096, 11), mk(0o40700, 1000, 4096, 12))
	want := []FieldDiff{
		{Field: "st_mode", Good: "S_IFDIR|0755", Here: "S_IFDIR|0700"},
		{Field: "st_uid", Good: "0", Here: "1000"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if d := StructDiff(nil, h, "struct stat", mk(0o100644, 0, 1, 1), mk(0o100644, 0, 1, 2)); d != nil {
		t.Errorf("only the inode differs: %+v, want nothing", d)
	}
	if d := StructDiff(nil, h, "char", []byte("a"), []byte("b")); d != nil {
		t.Errorf("not a struct: %+v", d)
	}
}

// TestStructDiffMtime: two struct stat buffers that differ in their
// device, inode, access and change times (which differ between any two
// runs) and in their modification time, which make compares: only the
// mtime is listed, as a date.
func TestStructDiffMtime(t *testing.T) {
	st, ok := systable.StatStruct("amd64")
	if !ok {
		t.Fatal("no struct stat layout for amd64")
	}
	mk := func(dev, ino, atime, mtime, ctime uint64) []byte {
		b := make([]byte, st.Size)
		for name, v := range map[string]uint64{"st_mode": 0o100644, "st_nlink": 1, "st_size": 6, "st_dev": dev, "st_ino": ino,
			"st_atime": atime, "st_mtime": mtime, "st_ctime": ctime} {
			f := st.Field(name)
			if f.Size == 4 {
				binary.LittleEndian.PutUint32(b[f.Off:], uint32(v))
			} else {
				binary.LittleEndian.PutUint64(b[f.Off:], v)
			}
		}
		return b
	}
	const t1000, t1005 = 1795600800, 1795601100 // 2026-11-25 10:00:00 and 10:05:00 UTC
	h := &trace.Header{Arch: "amd64"}
	got := StructDiff(nil, h, "struct stat", mk(0x27, 7, 1, t1005, 2), mk(0x34, 10, 3, t1000, 4))
	want := []FieldDiff{{Field: "st_mtime", Good: "2026-11-25 10:05:00 UTC", Here: "2026-11-25 10:00:00 UTC"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if d := StructDiff(nil, h, "struct stat", mk(0x27, 7, 1, t1005, 2), mk(0x34, 10, 3, t1005, 4)); d != nil {
		t.Errorf("only members that differ between any two runs differ: %+v, want nothing", d)
	}
}
