package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// result is one run of one command.
type result struct {
	wall   time.Duration
	status int   // exit status; 128+N when killed by signal N
	maxRSS int64 // ru_maxrss from wait4, KiB: the process and its reaped descendants
	hwm    int64 // the process's own VmHWM, KiB, polled while it ran (0 if not asked)
	stderr string
	err    error // could not start, or timed out
}

// runner runs the commands of a benchmark.
type runner struct {
	env     []string
	dir     string
	timeout time.Duration
	// measure is the measure helper (measure/measure.c), or "" to start
	// commands directly (then ru_maxrss includes the harness's own memory,
	// which Go's CLONE_VM spawn lends the child until its exec).
	measure string
	// stdout, when set, receives the command's standard output, which is
	// otherwise discarded (locate's JSON report).
	stdout io.Writer
}

// run runs argv with stdout discarded (or given to rn.stdout), stderr
// kept (its tail), in its own process group so that a timeout or ^C kills
// the whole tree. pollHWM samples the command's own peak RSS from /proc
// while it runs.
func (rn runner) run(ctx context.Context, argv []string, pollHWM bool) result {
	ctx, cancel := context.WithTimeout(ctx, rn.timeout)
	defer cancel()
	var report *os.File
	var reportW *os.File
	if rn.measure != "" {
		var err error
		if report, reportW, err = os.Pipe(); err != nil {
			return result{err: err}
		}
		defer report.Close()
		argv = append([]string{rn.measure}, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = rn.dir
	cmd.Env = rn.env
	cmd.Stdout = rn.stdout
	var errbuf tailBuffer
	cmd.Stderr = &errbuf
	if reportW != nil {
		cmd.ExtraFiles = []*os.File{reportW} // fd 3
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// the whole group: a tracer and its tracees
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 5 * time.Second

	start := time.Now()
	err := cmd.Start()
	if reportW != nil {
		reportW.Close()
	}
	if err != nil {
		return result{err: err}
	}
	var (
		hwm  int64
		wg   sync.WaitGroup
		done = make(chan struct{})
		meas = make(chan measured, 1)
	)
	poll := func(pid int) {
		if pollHWM {
			wg.Add(1)
			go func() {
				defer wg.Done()
				pollPeakRSS(pid, done, &hwm)
			}()
		}
	}
	if report != nil {
		// measure names the command's pid first, its figures at the end
		go func() { meas <- readMeasure(report, poll) }()
	} else {
		poll(cmd.Process.Pid)
		meas <- measured{}
	}
	werr := cmd.Wait()
	wall := time.Since(start)
	m := <-meas
	close(done)
	wg.Wait()

	r := result{wall: wall, hwm: hwm, stderr: errbuf.String(), status: -1}
	if ps := cmd.ProcessState; ps != nil {
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			r.maxRSS = ru.Maxrss
		}
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
			switch {
			case ws.Exited():
				r.status = ws.ExitStatus()
			case ws.Signaled():
				r.status = 128 + int(ws.Signal())
			}
		}
	}
	if m.ok {
		r.wall, r.maxRSS, r.status = m.wall, m.maxRSS, m.status
	}
	if ctx.Err() == context.DeadlineExceeded {
		r.err = fmt.Errorf("timed out after %v", rn.timeout)
	} else if werr != nil && !errors.As(werr, new(*exec.ExitError)) {
		r.err = werr
	}
	return r
}

// measured is what the measure helper reported.
type measured struct {
	ok     bool
	wall   time.Duration
	maxRSS int64
	status int
}

// readMeasure reads the measure helper's report from r: "pid PID" (then
// started is called with it) and "done MAXRSS STATUS WALL_NS".
func readMeasure(r io.Reader, started func(pid int)) measured {
	var m measured
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "pid":
			if pid, err := strconv.Atoi(f[1]); err == nil {
				started(pid)
			}
		case len(f) == 4 && f[0] == "done":
			rss, err1 := strconv.ParseInt(f[1], 10, 64)
			st, err2 := strconv.Atoi(f[2])
			ns, err3 := strconv.ParseInt(f[3], 10, 64)
			if err1 == nil && err2 == nil && err3 == nil {
				m = measured{ok: true, maxRSS: rss, status: st, wall: time.Duration(ns)}
			}
		}
	}
	return m
}

// pollPeakRSS reads VmHWM of pid every 20 ms until done; VmHWM only grows,
// so the last sample is the peak up to (nearly) the end of the run.
func pollPeakRSS(pid int, done <-chan struct{}, out *int64) {
	path := "/proc/" + strconv.Itoa(pid) + "/status"
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		if b, err := os.ReadFile(path); err == nil {
			if v := statusField(b, "VmHWM:"); v > *out {
				*out = v
			}
		}
		select {
		case <-done:
			return
		case <-t.C:
		}
	}
}

// statusField returns the number (kB) on the line of /proc/PID/status
// that starts with name, or 0.
func statusField(b []byte, name string) int64 {
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, name); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				v, _ := strconv.ParseInt(f[0], 10, 64)
				return v
			}
		}
	}
	return 0
}

// tailBuffer keeps the last 8 KiB written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

const tailMax = 8 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if t.buf.Len() > 2*tailMax {
		b := t.buf.Bytes()
		keep := append([]byte(nil), b[len(b)-tailMax:]...)
		t.buf.Reset()
		t.buf.Write(keep)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf.Bytes()
	if len(b) > tailMax {
		b = b[len(b)-tailMax:]
	}
	return string(b)
}

// lastLine is the last non-empty line of s, shortened for a table's note.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if len(l) > 160 {
		l = l[:160] + "…"
	}
	return l
}
