package systable

import (
	"testing"

	"golang.org/x/sys/unix"
)

// The columns sit on arguments and rows they make sense for.
func TestColumnsFitTheirRows(t *testing.T) {
	for _, r := range amd64Table(t).All() {
		fds := 0
		for _, a := range r.Args {
			if a.Kind == FD {
				fds++
			}
		}
		for i, a := range r.Args {
			if a.Volatile && a.Kind != OutBuf && a.Kind != InOutBuf {
				t.Errorf("%s: argument %d (%s) is volatile but the call does not write it", r.Name, i, a.Name)
			}
			want := map[Holds][]Kind{
				HoldsPath: {OutBuf}, HoldsWaitStatus: {OutBuf}, HoldsEnviron: {StrArray}, HoldsFileData: {InBuf},
			}
			if a.Holds != 0 && !kindIn(a.Kind, want[a.Holds]) {
				t.Errorf("%s: argument %d (%s) holds %d but is a %s", r.Name, i, a.Name, a.Holds, a.Kind)
			}
			if a.WrittenFD && (a.Kind != FD || fds < 2) {
				t.Errorf("%s: argument %d (%s) is the written fd of a call without two fds", r.Name, i, a.Name)
			}
			if a.ContentOnly && (a.Kind != FD && a.Kind != DirFD || a.WrittenFD || r.Effects&(ChangesFDState|ChangesFDFlags|DupsFD) != 0) {
				t.Errorf("%s: argument %d (%s) is content-only but is no read fd of a call that leaves the fd as it is", r.Name, i, a.Name)
			}
		}
		all := r.Effects
		for _, c := range r.Cond {
			all |= c.Effect
		}
		switch r.Made {
		case MadeSocket, MadeEpoll:
			if all&CreatesFD == 0 {
				t.Errorf("%s makes a socket or epoll but creates no fd", r.Name)
			}
		case MadePipe, MadeSocketPair:
			if all&CreatesFDPair == 0 {
				t.Errorf("%s makes a pipe or socketpair but creates no fd pair", r.Name)
			}
		}
		if (r.Wait != 0) != (r.Effects&WaitsChild != 0) {
			t.Errorf("%s: Wait %d with effects %s", r.Name, r.Wait, r.Effects)
		}
		if r.Unmaps && r.Effects&MapsMemory == 0 {
			t.Errorf("%s unmaps but does not map memory", r.Name)
		}
		if r.ServesImage {
			argv, envp := r.ImageArgs()
			if r.Effects&ExecsImage == 0 || argv < 0 || envp < 0 {
				t.Errorf("%s serves an image but does not exec one with an argv and an envp", r.Name)
			}
		}
		if r.Socket != 0 && r.Effects&UsesFD == 0 {
			t.Errorf("%s acts on a socket it does not use", r.Name)
		}
		if c := r.Copies; c != nil {
			for _, a := range []struct {
				i    uint8
				kind Kind
			}{{c.In, FD}, {c.Out, FD}, {c.InOff, InOutBuf}, {c.OutOff, InOutBuf}} {
				if int(a.i) >= len(r.Args) || r.Args[a.i].Kind != a.kind {
					t.Errorf("%s copies with argument %d, which is not a %s", r.Name, a.i, a.kind)
				}
			}
			if int(c.Len) >= len(r.Args) {
				t.Errorf("%s copies a length of argument %d, which it does not have", r.Name, c.Len)
			}
		}
	}
}

func kindIn(k Kind, ks []Kind) bool {
	for _, x := range ks {
		if k == x {
			return true
		}
	}
	return false
}

// A fixed-size buffer of a type the struct table lays out has the
// table's size: rows and layouts cannot drift apart.
func TestStructSizesMatchRows(t *testing.T) {
	stat, ok := StatStruct("amd64")
	if !ok {
		t.Fatal("no struct stat layout for amd64")
	}
	for _, r := range amd64Table(t).All() {
		for _, a := range r.Args {
			if a.Len.From != LenFixed || a.Struct == "" {
				continue
			}
			st := StructOf(a.Struct)
			if st.Is == StructStat {
				st = stat
			}
			if _, array := StructName(a.Struct); array || st.Size == 0 {
				continue
			}
			if int(a.Len.Size) != st.Size {
				t.Errorf("%s %s: %s is %d bytes in the row, %d in the struct table", r.Name, a.Name, a.Struct, a.Len.Size, st.Size)
			}
		}
	}
	for _, s := range append(structLayouts(), stat) {
		for _, f := range s.Fields {
			if s.Size > 0 && f.Off+f.Size > s.Size {
				t.Errorf("struct %s: field %s ends at %d, past the struct's %d bytes", s.Name, f.Name, f.Off+f.Size, s.Size)
			}
		}
	}
}

func TestStructOf(t *testing.T) {
	for ctype, want := range map[string]StructKind{
		"struct stat": StructStat, "struct pollfd[]": StructPollfd, "int[2]": StructFDPair,
		"fd_set": StructFdSet, "struct sockaddr": StructSockaddr, "struct linux_dirent64": StructDirent64,
		"unsigned long[]": StructLong, "struct timeval[2]": StructTimeval, "char[]": StructPlain,
	} {
		if got := StructOf(ctype).Is; got != want {
			t.Errorf("StructOf(%q).Is = %d, want %d", ctype, got, want)
		}
	}
}

func TestRequests(t *testing.T) {
	tab := amd64Table(t)
	fcntl, _ := tab.ByName("fcntl")
	ioctl, _ := tab.ByName("ioctl")
	prctl, _ := tab.ByName("prctl")
	for _, c := range []struct {
		name             string
		row              *Syscall
		args             [6]uint64
		changes, cloexec bool
		desc             bool
	}{
		{"F_SETFD FD_CLOEXEC", fcntl, [6]uint64{3, unix.F_SETFD, unix.FD_CLOEXEC}, true, true, false},
		{"F_SETFD 0", fcntl, [6]uint64{3, unix.F_SETFD, 0}, true, false, false},
		{"F_SETFL", fcntl, [6]uint64{3, unix.F_SETFL, unix.O_NONBLOCK}, false, false, true},
		{"F_OFD_SETLK", fcntl, [6]uint64{3, unix.F_OFD_SETLK}, false, false, true},
		{"F_GETFL", fcntl, [6]uint64{3, unix.F_GETFL}, false, false, false},
		{"FIOCLEX", ioctl, [6]uint64{3, ioFIOCLEX}, true, true, false},
		{"FIONCLEX", ioctl, [6]uint64{3, ioFIONCLEX}, true, false, false},
		{"FIONBIO", ioctl, [6]uint64{3, ioFIONBIO}, false, false, true},
	} {
		changes, cloexec := c.row.CloexecChange(c.args)
		desc := c.row.RequestEffect(c.args)&ReqChangesDescription != 0
		if changes != c.changes || cloexec != c.cloexec || desc != c.desc {
			t.Errorf("%s: cloexec change (%v, %v), description %v; want (%v, %v), %v", c.name, changes, cloexec, desc, c.changes, c.cloexec, c.desc)
		}
	}
	if prctl.RequestEffect([6]uint64{unix.PR_SET_NAME})&ReqNamesThread == 0 {
		t.Error("prctl(PR_SET_NAME) does not name the thread")
	}
	r, ok := tab.Request(fcntl, [6]uint64{3, unix.F_GETLK})
	if !ok || r.Name != "F_GETLK" || r.Size != flockSize || r.Dir != InOutBuf {
		t.Errorf("fcntl F_GETLK request = %+v, %v", r, ok)
	}
	r, ok = tab.Request(ioctl, [6]uint64{0, unix.TCGETS})
	if !ok || r.Name != "TCGETS" || r.Dir != OutBuf || r.Size == 0 {
		t.Errorf("ioctl TCGETS request = %+v, %v", r, ok)
	}
	if _, ok := tab.Request(fcntl, [6]uint64{}); !ok {
		t.Error("fcntl has no request argument")
	}
	read, _ := tab.ByName("read")
	if _, ok := tab.Request(read, [6]uint64{}); ok {
		t.Error("read carries a request")
	}
}

func TestWaitsAnyChild(t *testing.T) {
	tab := amd64Table(t)
	wait4, _ := tab.ByName("wait4")
	waitid, _ := tab.ByName("waitid")
	neg := uint64(uint32(0xffffffff)) // -1 as a 32-bit pid
	for _, c := range []struct {
		row  *Syscall
		arg0 uint64
		want bool
	}{
		{wait4, neg, true}, {wait4, 0, true}, {wait4, 42, false},
		{waitid, 0, true}, {waitid, 2, true}, {waitid, 1, false}, // P_ALL, P_PGID, P_PID
	} {
		if got := c.row.WaitsAnyChild([6]uint64{c.arg0}); got != c.want {
			t.Errorf("%s(%d): WaitsAnyChild = %v", c.row.Name, c.arg0, got)
		}
	}
}

func TestDecodeSockaddr(t *testing.T) {
	in4 := []byte{2, 0, 0x1f, 0x90, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}
	a, ok := DecodeSockaddr(in4)
	if !ok || a.Family != AFInet || a.IP.String() != "127.0.0.1:8080" {
		t.Errorf("AF_INET: %+v %v", a, ok)
	}
	un := append([]byte{1, 0}, "/run/x.sock\x00"...)
	if a, _ := DecodeSockaddr(un); a.Family != AFUnix || string(a.Data[:11]) != "/run/x.sock" || a.IP.IsValid() {
		t.Errorf("AF_UNIX: %+v", a)
	}
	if a, _ := DecodeSockaddr([]byte{2, 0, 1}); a.IP.IsValid() {
		t.Error("a short AF_INET address decoded an IP")
	}
	if _, ok := DecodeSockaddr([]byte{2}); ok {
		t.Error("one byte decoded")
	}
}

func TestDirents(t *testing.T) {
	rec := make([]byte, 24)
	le.PutUint64(rec, 7)
	le.PutUint16(rec[16:], 24)
	rec[18] = DirentDT
	copy(rec[19:], "etc")
	ents, ok := Dirents(append(rec, rec...), true)
	if !ok || len(ents) != 2 || ents[0].Ino != 7 || ents[1].Type != DirentDT || string(ents[0].Name[:3]) != "etc" {
		t.Errorf("Dirents = %+v, %v", ents, ok)
	}
	if _, ok := Dirents(rec[:20], true); ok {
		t.Error("a cut record parsed")
	}
}

func TestCloneSharing(t *testing.T) {
	s := CloneSharing(unix.CLONE_VM | unix.CLONE_FS | unix.CLONE_FILES | unix.CLONE_THREAD)
	if !s.VM || !s.FS || !s.FDs || !s.Thread || s.Vfork {
		t.Errorf("thread clone: %+v", s)
	}
	if s := CloneSharing(uint64(unix.SIGCHLD)); s != (CloneShares{}) {
		t.Errorf("fork: %+v", s)
	}
}

// TestMetadataColumn: the calls that report a file's attributes, not
// what the program reads from it (locate names them as a culprit last).
func TestMetadataColumn(t *testing.T) {
	tab := amd64Table(t)
	want := map[string]bool{}
	for _, n := range []string{"stat", "fstat", "lstat", "newfstatat", "statx", "access", "faccessat", "faccessat2",
		"readlink", "readlinkat", "statfs", "fstatfs", "getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr", "flistxattr"} {
		want[n] = true
	}
	for _, row := range tab.All() {
		if row.Metadata != want[row.Name] {
			t.Errorf("%s: Metadata %v, want %v", row.Name, row.Metadata, want[row.Name])
		}
	}
}

// TestReadsDataColumn: the calls that read a file's bytes from their fd,
// 0 meaning the end of the file (replay's empty stand-in taint).
func TestReadsDataColumn(t *testing.T) {
	tab := amd64Table(t)
	want := map[string]bool{"read": true, "pread64": true, "readv": true, "preadv": true, "preadv2": true}
	for _, row := range tab.All() {
		if row.ReadsData != want[row.Name] {
			t.Errorf("%s: ReadsData %v, want %v", row.Name, row.ReadsData, want[row.Name])
		}
	}
}
