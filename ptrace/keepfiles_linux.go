package ptrace

import (
	"debug/elf"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// fileKeeper gives the files a recording's calls open for reading and the
// images they exec an object ID, and hands each distinct file, opened,
// to the FileSink. It runs on the tracer thread and costs a stat per
// open, and an open and fstat per distinct file: reading, hashing and
// storing the content is the sink's, off this thread.
type fileKeeper struct {
	sink FileSink
	seen map[fileKey]uint32
	next uint32 // the last ID given
	// stated, when the sink is a StatedFilter, says which files the
	// command only stat'ed are kept too (keepstated_linux.go); declined
	// are those it said no to, not asked again.
	stated   StatedFilter
	declined map[fileKey]bool
	statBuf  statBuf // decodes the stat a call returned
	// dirs are directories of stat'ed files and where they lead, this
	// process's view (keepstated_linux.go): asking the filter about a
	// file costs no system call when its directory is here.
	dirs map[dirKey]string
}

func newFileKeeper(sink FileSink) *fileKeeper {
	k := &fileKeeper{sink: sink, seen: make(map[fileKey]uint32)}
	if f, ok := sink.(StatedFilter); ok {
		k.stated, k.declined, k.statBuf = f, make(map[fileKey]bool), newStatBuf()
	}
	return k
}

// keepOpened sets c.Obj when c, just completed, made an fd on a regular
// file it may read (systable's OpensForReading).
func (k *fileKeeper) keepOpened(t *task, row *systable.Syscall, c *trace.Call) {
	if c.Ret < 0 || c.NoReturn {
		return
	}
	var how []byte
	if i := row.StructArg(systable.StructOpenHow); i >= 0 {
		if m := c.MemOfDir(uint8(i), trace.PartWhole, trace.In); m != nil {
			how = m.Data
		}
	}
	if !row.OpensForReading(c.Args, how) {
		return
	}
	c.Obj, _ = k.keep(fmt.Sprintf("/proc/%d/fd/%d", t.tid, c.Ret), c.Path, false)
}

// keepExec sets c.Obj, a successful exec's, to the image the call ran:
// the new image of t's process, which for a "#!" script is its
// interpreter (replaying the exec runs that image with the recorded
// interpreter's part of the argv, which names the script, and the live
// arguments). The script itself is kept too, and so
// is the ELF interpreter (PT_INTERP) of a new image; no call names those
// two (the interpreter's own open of the script does). Must be called at
// the exec's exit stop, before the image runs.
func (k *fileKeeper) keepExec(t *task, c *trace.Call) {
	pid := t.proc.pid
	exe := fmt.Sprintf("/proc/%d/exe", pid)
	var interp string
	if named := fmt.Sprintf("/proc/%d/root%s", pid, c.Path); c.Path != "" && !sameFile(exe, named) {
		// A script: the kernel ran its interpreter.
		k.keep(named, c.Path, false)
		image, _ := os.Readlink(exe)
		c.Obj, interp = k.keep(exe, image, true)
	} else {
		c.Obj, interp = k.keep(exe, c.Path, true)
	}
	if interp != "" {
		k.keep(fmt.Sprintf("/proc/%d/root%s", pid, interp), interp, false)
	}
}

// sameFile reports whether paths a and b lead to one file.
func sameFile(a, b string) bool {
	var sa, sb unix.Stat_t
	if unix.Stat(a, &sa) != nil || unix.Stat(b, &sb) != nil {
		return true // nothing better to go by: the image
	}
	return sa.Dev == sb.Dev && sa.Ino == sb.Ino
}

// keep gives the regular file at link (a /proc path that leads to it)
// its ID, named path, and hands it, opened, to the sink when it is new.
// With exe set it also returns a new file's ELF interpreter, read before
// the sink has the file.
func (k *fileKeeper) keep(link, path string, exe bool) (id uint32, interp string) {
	var st unix.Stat_t
	if err := unix.Stat(link, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, ""
	}
	return k.keepFile(link, path, &st, exe, nil)
}

// keepFile is keep of the regular file at link whose stat is st. With
// stated set (a file the command only stat'ed), a new file is kept only
// when the StatedFilter wants it, asked once per file.
func (k *fileKeeper) keepFile(link, path string, st *unix.Stat_t, exe bool, stated *statedName) (id uint32, interp string) {
	onlyWanted := stated != nil
	key := statKey(st)
	if id, ok := k.seen[key]; ok {
		return id, ""
	}
	if onlyWanted {
		if k.declined[key] {
			return 0, ""
		}
		wanted, ok := k.wantsStated(stated)
		if !ok {
			return 0, "" // nothing to keep: not even a hash
		}
		if !wanted {
			k.declined[key] = true
			return 0, ""
		}
	}
	f, err := os.OpenFile(link, os.O_RDONLY|unix.O_CLOEXEC, 0)
	if onlyWanted && err != nil {
		return 0, ""
	}
	k.next++
	id = k.next
	k.seen[key] = id
	obj := &trace.FileObject{ID: id, Path: path}
	if err == nil {
		if err := unix.Fstat(int(f.Fd()), st); err != nil {
			f.Close()
			f = nil
		}
	} else {
		f = nil
	}
	if f != nil {
		// Where the path led, every link followed (as this process sees
		// the file system).
		if resolved, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd())); err == nil && resolved != path {
			obj.Resolved = resolved
		}
		if exe {
			interp = elfInterp(f)
		}
	}
	if obj.Path == "" {
		obj.Path = obj.Resolved
	}
	obj.Size, obj.Mode, obj.UID, obj.GID = st.Size, st.Mode, st.Uid, st.Gid
	obj.Mtime, obj.Dev, obj.Ino = st.Mtim.Nano(), st.Dev, st.Ino
	k.sink.Keep(f, obj)
	return id, interp
}

func statKey(st *unix.Stat_t) fileKey {
	return fileKey{dev: st.Dev, ino: st.Ino, size: st.Size, mtime: st.Mtim.Nano()}
}

// elfInterp returns the PT_INTERP of the ELF file f, or "" (a script, a
// static binary). It reads with ReadAt and leaves f's offset alone.
func elfInterp(f *os.File) string {
	ef, err := elf.NewFile(f)
	if err != nil {
		return ""
	}
	for _, p := range ef.Progs {
		if p.Type != elf.PT_INTERP || p.Filesz == 0 || p.Filesz > 4096 {
			continue
		}
		b := make([]byte, p.Filesz)
		if _, err := p.ReadAt(b, 0); err != nil {
			return ""
		}
		if i := len(b) - 1; b[i] == 0 {
			b = b[:i]
		}
		if len(b) > 0 && b[0] == '/' {
			return string(b)
		}
	}
	return ""
}
