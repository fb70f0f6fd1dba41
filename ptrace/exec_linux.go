package ptrace

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// atExecFn is the auxv entry pointing at the path execve was given.
const atExecFn = 31

// hideVDSO turns a new image's AT_SYSINFO_EHDR into AT_IGNORE, so that
// its C library finds no vDSO and makes time queries as system calls.
// Must be called at the exec event, before the image runs.
func hideVDSO(tid int, auxv []auxvEntry) error {
	for _, e := range auxv {
		if e.key == atSysinfoEHDR {
			return ptrace(unix.PTRACE_POKEDATA, tid, uintptr(e.addr), atIgnore)
		}
	}
	return nil
}

// execImage is what a successful exec was passed, as the new image holds
// it: the path (AT_EXECFN), argv and envp, each string NUL-terminated.
type execImage struct {
	path, argv, envp []byte
}

// readExecImage reads a freshly exec'd process's path, argv and envp.
// Must be called at the exec event, before the new image runs.
func readExecImage(pid int) *execImage {
	img := &execImage{}
	img.argv, _ = os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	img.envp, _ = os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if auxv, err := os.ReadFile(fmt.Sprintf("/proc/%d/auxv", pid)); err == nil {
		for i := 0; i+16 <= len(auxv); i += 16 {
			if binary.LittleEndian.Uint64(auxv[i:]) == atExecFn {
				img.path, _ = memReader{pid: pid}.readString(binary.LittleEndian.Uint64(auxv[i+8:]), maxString)
				break
			}
		}
	}
	return img
}

// isHelper reports whether the image is envbisect's re-exec helper: its
// environment carries the helper marker, which the command's never does.
func (img *execImage) isHelper() bool {
	marker := []byte(launch.HelperMarker + "\x00")
	for env := img.envp; len(env) > 0; {
		i := bytes.IndexByte(env, 0)
		if i < 0 {
			return false
		}
		if bytes.Equal(env[:i+1], marker) {
			return true
		}
		env = env[i+1:]
	}
	return false
}

// mems lays the image out as the captured memory of the exec call row:
// its path argument, then its first and second string arrays.
func (img *execImage) mems(row *systable.Syscall) []trace.Mem {
	var out []trace.Mem
	arrays := [][]byte{img.argv, img.envp}
	for i := range row.Args {
		switch row.Args[i].Kind {
		case systable.Path:
			out = append(out, trace.Mem{Arg: uint8(i), Dir: trace.In, Len: uint64(len(img.path)), Data: img.path})
		case systable.StrArray:
			if len(arrays) == 0 {
				continue
			}
			out = append(out, trace.Mem{Arg: uint8(i), Part: trace.PartStrings, Dir: trace.In, Len: uint64(len(arrays[0])), Data: arrays[0]})
			arrays = arrays[1:]
		}
	}
	return out
}
