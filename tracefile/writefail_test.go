package tracefile

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestDiskFull(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer f.Close()
	_, err = NewWriter(f, sampleHeader())
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("got %v, want ENOSPC reported as disk full", err)
	}
}

// failingWriter passes n bytes to w, then fails with ENOSPC, after writing
// part of the buffer it was given.
type failingWriter struct {
	w io.Writer
	n int
}

func (f *failingWriter) Write(b []byte) (int, error) {
	if len(b) <= f.n {
		f.n -= len(b)
		return f.w.Write(b)
	}
	k, _ := f.w.Write(b[:f.n])
	f.n = 0
	return k, &os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}
}

// A write that fails part way leaves the file cut back to its last
// complete frame, and the Writer refuses to write more.
func TestWriteFailsMidway(t *testing.T) {
	path := filepath.Join(t.TempDir(), "full.envb")
	w, err := Create(path, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	evs := sampleEvents()
	if err := w.WriteEvents(evs[:5]); err != nil {
		t.Fatal(err)
	}
	good := w.Stats().Bytes
	w.w = &failingWriter{w: w.f, n: 100}
	err = w.WriteEvents(evs[5:])
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "write trace "+path+": disk full: no space left on device") {
		t.Fatalf("got %v", err)
	}
	if err2 := w.WriteEvents(evs[5:]); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("after a failed write: %v, want the same error again", err2)
	}
	if err2 := w.Close(sampleEnd()); !errors.Is(err2, syscall.ENOSPC) {
		t.Errorf("Close after a failed write: %v", err2)
	}
	fi, _ := os.Stat(path)
	if uint64(fi.Size()) != good {
		t.Errorf("file has %d bytes, want %d: it was not cut back", fi.Size(), good)
	}
	tr, err := ReadFile(path)
	if !errors.Is(err, ErrTruncated) || tr == nil || len(tr.Events) != 5 {
		t.Errorf("got %d events, %v; want 5 and ErrTruncated", len(tr.Events), err)
	}
}

func TestAbort(t *testing.T) {
	path := filepath.Join(t.TempDir(), "aborted.envb")
	w, err := Create(path, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	w.WriteStart(sampleStart())
	w.WriteEvents(sampleEvents())
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	tr, err := ReadFile(path)
	if !errors.Is(err, ErrTruncated) || tr == nil {
		t.Fatalf("got %v, want a partial trace and ErrTruncated", err)
	}
	if len(tr.Events) != len(sampleEvents()) || len(tr.Start) != len(sampleStart()) || tr.End != nil {
		t.Errorf("partial trace: %d events, %d start events, end %v", len(tr.Events), len(tr.Start), tr.End)
	}
}

const killedEnv = "ENVBISECT_TRACEFILE_KILLED_RECORDER"

// A recorder killed with SIGKILL leaves every batch that WriteEvents
// returned from readable: nothing is held back in a buffer. The trace is
// at its partial name beside the output, which it never replaced.
func TestKilledRecorder(t *testing.T) {
	if path := os.Getenv(killedEnv); path != "" {
		// The recorder: write some batches, say so, wait to be killed.
		w, err := Create(path, sampleHeader())
		if err != nil {
			os.Exit(2)
		}
		w.WriteStart(sampleStart())
		for i := range uint64(10) {
			evs := sampleEvents()
			for _, ev := range evs {
				if ev.Call != nil {
					ev.Call.Seq += i * 100
				}
				if ev.Proc != nil && ev.Proc.Proc == 2 {
					ev.Proc.Proc += uint32(i) * 10 // each batch spawns a process of its own
				}
			}
			if err := w.WriteEvents(evs); err != nil {
				os.Exit(3)
			}
		}
		os.Stdout.WriteString("written\n")
		select {}
	}
	path := filepath.Join(t.TempDir(), "killed.envb")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledRecorder$")
	cmd.Env = append(os.Environ(), killedEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if line != "written\n" {
		t.Fatalf("recorder said %q, %v", line, err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the output %s exists (%v): a killed recorder must not have put a cut trace in its place", path, err)
	}
	partial, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".killed.envb.*.partial"))
	if len(partial) != 1 {
		t.Fatalf("partial files %v, want one", partial)
	}
	tr, err := ReadFile(partial[0])
	if !errors.Is(err, ErrTruncated) || tr == nil {
		t.Fatalf("got %v, want a partial trace and ErrTruncated", err)
	}
	if want := 10 * len(sampleEvents()); len(tr.Events) != want {
		t.Errorf("%d events readable, want %d", len(tr.Events), want)
	}
	if !strings.Contains(err.Error(), "without an end frame") {
		t.Errorf("message %q", err)
	}
}

// A trace can go to a pipe: no fsync there, and no chmod of what is not a
// regular file.
func TestWriteToPipe(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(pr)
		done <- b
	}()
	w, err := NewWriter(pw, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteEvents(sampleEvents()); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(nil); err != nil {
		t.Fatalf("Close on a pipe: %v", err)
	}
	pw.Close()
	if _, err := readBytes(<-done, defaultLimits); err != nil {
		t.Error(err)
	}
}
