package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// The ebpf-resident variant records through a resident recorder
// (`envbisect recorder`), started once per invocation of the harness:
// each round's `record --backend ebpf --recorder SOCKET` then connects to
// it instead of loading, verifying and attaching the probe itself.

// resident is a running `envbisect recorder` of the harness's own.
type resident struct {
	cmd    *exec.Cmd
	socket string
	stderr *tailBuffer
	exited chan error // its Wait's result
	hwm    int64      // KiB, its VmHWM read just before it was stopped
}

// residentWait is how long startResident waits for the recorder to
// answer on its socket (it loads and verifies the programs first).
const residentWait = 30 * time.Second

// startResident starts `envbisect recorder --socket DIR/r.sock` in its own
// process group and waits until the socket accepts a connection. It
// needs root; the recorder is stopped again if it does not answer.
func startResident(ctx context.Context, bin, dir string) (*resident, error) {
	if os.Geteuid() != 0 {
		return nil, errors.New("needs root (envbisect recorder loads BPF programs): run the harness as root")
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("%s not built (make build)", bin)
	}
	r := &resident{socket: filepath.Join(dir, "r.sock"), stderr: &tailBuffer{}}
	r.cmd = exec.Command(bin, "recorder", "--socket", r.socket)
	r.cmd.Stderr = r.stderr
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := r.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start envbisect recorder: %w", err)
	}
	r.exited = make(chan error, 1)
	go func() { r.exited <- r.cmd.Wait() }()
	deadline := time.Now().Add(residentWait)
	for {
		if c, err := net.Dial("unix", r.socket); err == nil {
			c.Close()
			return r, nil
		}
		select {
		case err := <-r.exited:
			return nil, fmt.Errorf("envbisect recorder exited before answering (%v): %s", err, lastLine(r.stderr.String()))
		case <-ctx.Done():
			r.kill()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			r.kill()
			return nil, fmt.Errorf("envbisect recorder did not answer on %s within %v: %s", r.socket, residentWait, lastLine(r.stderr.String()))
		}
	}
}

// stop reads the recorder's VmHWM, then stops it with SIGTERM (it
// detaches and unloads its programs and removes the socket) and waits
// for it; one that does not stop within 10 s is killed with its group,
// and its socket removed.
func (r *resident) stop() error {
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(r.cmd.Process.Pid) + "/status"); err == nil {
		r.hwm = statusField(b, "VmHWM:")
	}
	r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-r.exited:
		if err != nil {
			return fmt.Errorf("envbisect recorder: %v: %s", err, lastLine(r.stderr.String()))
		}
		return nil
	case <-time.After(10 * time.Second):
		r.kill()
		return errors.New("envbisect recorder did not stop within 10 s of SIGTERM: killed")
	}
}

// kill kills the recorder's process group, waits for it and removes its
// socket (a killed recorder leaves it; the kernel unloads its programs
// when their last descriptor closes).
func (r *resident) kill() {
	syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
	<-r.exited
	os.Remove(r.socket)
}

// residentArgv is the ebpf-resident variant's command: envbisect record
// --backend ebpf through the recorder at socket, writing trace.
func residentArgv(bin string, o options, socket, trace string, argv []string) []string {
	out := []string{bin, "record", "--backend", "ebpf", "--recorder", socket, "--cpu", recordCPU(o), "-o", trace, "--"}
	return append(out, argv...)
}
