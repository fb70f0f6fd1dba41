package serve

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Fill makes the memfd that process pid holds on fd (made with
// MFD_ALLOW_SEALING, empty) the good environment's file id: its content,
// and the recorded mode (without set-ID bits), owner and modification time, so that fstat
// agrees. With readOnly (the program opened the file for reading only)
// it is sealed against writes as well as against growing and shrinking,
// as the read-only file was; otherwise the program may change it as it
// could the real one. The caller checked Servable.
func (s *Store) Fill(pid, fd int, id uint32, readOnly bool) error {
	f, err := s.Servable(id)
	if err != nil {
		return err
	}
	src, err := s.content(f)
	if err != nil {
		return err
	}
	dst, err := os.OpenFile("/proc/"+strconv.Itoa(pid)+"/fd/"+strconv.Itoa(fd), os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("serve %s: open the process's memfd: %w", f.Path, err)
	}
	defer dst.Close()
	if err := isEmptyStandIn(dst); err != nil {
		return fmt.Errorf("serve %s: fd %d of process %d: %w: not filled", f.Path, fd, pid, err)
	}
	if err := copyAll(dst, src, f.Size); err != nil {
		return fmt.Errorf("serve %s: %w", f.Path, err)
	}
	// As recorded, so that an executed fstat sees the good file. Best
	// effort: the bytes are what matters, and a process of another user
	// keeps its fd whatever the owner becomes.
	// Never set-user-ID or set-group-ID: the bytes come from a trace
	// file, which whoever made it chose, and a traced exec of a memfd
	// owned by root with those bits would run them with root's rights.
	_ = unix.Fchmod(int(dst.Fd()), f.Mode&0o1777)
	_ = dst.Chown(int(f.UID), int(f.GID))
	mt := unix.NsecToTimespec(f.Mtime)
	_ = unix.UtimesNanoAt(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(int(dst.Fd())), []unix.Timespec{mt, mt}, 0)
	seals := unix.F_SEAL_SHRINK | unix.F_SEAL_GROW
	if readOnly {
		seals |= unix.F_SEAL_WRITE | unix.F_SEAL_SEAL
	}
	if _, err := unix.FcntlInt(dst.Fd(), unix.F_ADD_SEALS, seals); err != nil {
		return fmt.Errorf("serve %s: seal: %w", f.Path, err)
	}
	return nil
}

// isEmptyStandIn checks that dst is what the tracer made for Fill: an
// empty memfd that allows sealing and has no seal yet (but F_SEAL_EXEC,
// which the kernel adds to every memfd made under memfd_noexec or with
// MFD_NOEXEC_SEAL). Anything else
// means the fd is not the stand-in (the tracer's view of the process
// went out of step with it, or the process replaced the fd), and
// filling it would write the good file's bytes, mode, owner and mtime
// into whatever it is: the user's real file, /dev/null.
func isEmptyStandIn(dst *os.File) error {
	link, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(dst.Fd())))
	if err != nil {
		return fmt.Errorf("what the fd is: %w", err)
	}
	if !strings.HasPrefix(link, "/memfd:") {
		return fmt.Errorf("it is %s, not a stand-in memfd", link)
	}
	seals, err := unix.FcntlInt(dst.Fd(), unix.F_GET_SEALS, 0)
	if err != nil || seals&^unix.F_SEAL_EXEC != 0 {
		return fmt.Errorf("%s is not a stand-in (seals %#x, %v)", link, seals, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(dst.Fd()), &st); err != nil {
		return fmt.Errorf("fstat %s: %w", link, err)
	}
	if st.Size != 0 {
		return fmt.Errorf("%s holds %d bytes already: not an empty stand-in", link, st.Size)
	}
	return nil
}

// copyAll copies size bytes from the start of src to dst, in the kernel
// where it can (copy_file_range between memfds), else through memory.
func copyAll(dst, src *os.File, size int64) error {
	var off int64
	for off < size {
		n, err := unix.CopyFileRange(int(src.Fd()), &off, int(dst.Fd()), nil, int(size-off), 0)
		if err != nil || n == 0 {
			break
		}
	}
	if off == size {
		return nil
	}
	if _, err := dst.Seek(off, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(dst, io.NewSectionReader(src, off, size-off))
	return err
}
