package systable

import (
	"testing"

	"golang.org/x/sys/unix"
)

func TestFDTableRules(t *testing.T) {
	tab := NewFDTable[string]()
	tab.Open(0, "stdin", false)
	tab.Open(3, "/etc/hosts", true)
	if !tab.Dup(3, 10, "/etc/hosts (copy)", false) {
		t.Fatal("dup onto another number did nothing")
	}
	if tab.Dup(3, 3, "x", false) {
		t.Error("dup2(fd, fd) changed the table")
	}
	if ref, _ := tab.Get(3); ref != "/etc/hosts" {
		t.Errorf("fd 3 = %q after dup2(3, 3)", ref)
	}
	if tab.Cloexec(10) {
		t.Error("a copy inherited close-on-exec: the flag belongs to the fd")
	}

	child := tab.Fork(unix.CLONE_FILES)
	child.Open(4, "shared", false)
	if _, ok := tab.Get(4); !ok {
		t.Error("CLONE_FILES: the parent does not see the child's new fd")
	}
	forked := tab.Fork(0)
	forked.Close(0)
	if _, ok := tab.Get(0); !ok {
		t.Error("fork: closing in the child closed the parent's fd")
	}

	after := tab.Exec()
	if _, ok := after.Get(3); ok {
		t.Error("exec kept a close-on-exec fd")
	}
	if _, ok := after.Get(10); !ok {
		t.Error("exec dropped an fd without close-on-exec")
	}
	if _, ok := tab.Get(3); !ok {
		t.Error("exec changed the table it was called on (the process's old, maybe shared, table)")
	}

	tab.SetCloexec(0, true)
	if !tab.Cloexec(0) {
		t.Error("F_SETFD FD_CLOEXEC did not stick")
	}
	marked := tab.CloseRange(3, 4, unix.CLOSE_RANGE_CLOEXEC)
	if marked != tab || !tab.Cloexec(4) || !tab.Cloexec(3) {
		t.Error("close_range CLOEXEC: want fds 3 and 4 marked in the same table")
	}
	own := tab.CloseRange(0, ^uint32(0), unix.CLOSE_RANGE_UNSHARE)
	if own == tab || own.Len() != 0 || tab.Len() == 0 {
		t.Errorf("close_range UNSHARE: got %d fds in a new table, %d in the old", own.Len(), tab.Len())
	}
}

// TestFDTableMade: the fd a change made, or the first of a pair, is what
// a call that names no path is shown with; a change that made none has
// none.
func TestFDTableMade(t *testing.T) {
	tab := NewFDTable[string]()
	tab.Open(3, "socket:[1]", false)
	tab.Open(4, "pipe:[2]", false)
	tab.Open(5, "pipe:[2]", false)
	for _, c := range []struct {
		name string
		ch   FDChange
		want string
		ok   bool
	}{
		{"made", FDChange{Op: FDMade, FD: 3, From: -1}, "socket:[1]", true},
		{"pair", FDChange{Op: FDMadePair, From: -1, Pair: [2]int32{4, 5}}, "pipe:[2]", true},
		{"closed", FDChange{Op: FDClosed, FD: 3}, "", false},
		{"kept", FDChange{Op: FDKept}, "", false},
	} {
		got, ok := tab.Made(c.ch)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: Made = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
