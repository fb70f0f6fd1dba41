package systable

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The generated layout of the socket message structs against a second
// source: x/sys's Go structs for linux/amd64.
func TestMsgLayoutMatchesXsys(t *testing.T) {
	var h unix.Msghdr
	var mh unix.Mmsghdr
	want := MsgLayout{
		IovecSize:   unix.SizeofIovec,
		MsghdrSize:  unix.SizeofMsghdr,
		NameLen:     int(unsafe.Offsetof(h.Namelen)),
		Iov:         int(unsafe.Offsetof(h.Iov)),
		IovLen:      int(unsafe.Offsetof(h.Iovlen)),
		Control:     int(unsafe.Offsetof(h.Control)),
		ControlLen:  int(unsafe.Offsetof(h.Controllen)),
		MmsghdrSize: unix.SizeofMmsghdr,
		MsgLen:      int(unsafe.Offsetof(mh.Len)),
	}
	if got := amd64Table(t).Msg(); got != want {
		t.Errorf("x86-64 MsgLayout %+v, x/sys says %+v", got, want)
	}
}

// sendmmsg and recvmmsg: an mmsghdr array sized by vlen, a count of
// messages returned.
func TestMmsgRows(t *testing.T) {
	tab := amd64Table(t)
	for _, tc := range []struct {
		name string
		kind Kind
	}{{"sendmmsg", InMmsghdr}, {"recvmmsg", OutMmsghdr}} {
		r, ok := tab.ByName(tc.name)
		if !ok || r.Unknown {
			t.Fatalf("%s: no detailed row", tc.name)
		}
		a := r.Args[1]
		if a.Kind != tc.kind || !a.Kind.IsMmsghdr() || a.Len != byArg(2) || r.Args[2].Name != "vlen" || r.Args[0].Kind != FD || r.Ret != Int {
			t.Errorf("%s: args %+v, ret %v: want fd, %v sized by vlen, vlen", tc.name, r.Args, r.Ret, tc.kind)
		}
	}
}
