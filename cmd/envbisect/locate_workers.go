package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/bisect"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/trace"
)

// Parallel runs (locate --jobs N). The tracer makes one run per process
// at a time (it owns the process's SIGCHLD disposition and waits for any
// child), so a parallel locate starts N workers: envbisect itself, as
// `locate --worker` with the same arguments, one per slot, each pinned to
// the slot's CPU (--cpu). The workers are started first, so that reading
// the trace and building its graph, which each does for itself, overlap
// with the parent's doing the same. A worker then waits for its setup:
// where the runs happen and their sandbox, as the parent resolved them
// once (a worker never joins --container itself: copying a container's
// seccomp filters seizes its init process, which two workers at once
// cannot both do, and the sandbox is probed once). Then it serves
// requests: one JSON workerSetup, then one bisect.Request per line on fd
// 3, one workerReply per line on fd 4. The search sends slot j's runs to
// worker j.

// workerSetup is what the parent resolved once and hands every worker
// before its first run.
type workerSetup struct {
	Join    *trace.Join   `json:"join,omitempty"`
	Env     []string      `json:"env"` // nil: envbisect's own; empty: none (a container's)
	Dir     string        `json:"dir,omitempty"`
	Sandbox *sandbox.Spec `json:"sandbox,omitempty"`
	// Start is the parent's list of start items: a request's Start counts
	// into it, so every worker must replay the same items in the same
	// order, not a list it worked out by itself.
	Start []align.StartDiff `json:"start,omitempty"`
}

// site is where the worker's runs happen, pinned to cpu.
func (w workerSetup) site(cpu int) runSite {
	return runSite{cpu: cpu, join: w.Join, env: w.Env, dir: w.Dir}
}

// workerReply is what a worker answers for one run.
type workerReply struct {
	Outcome bisect.Outcome `json:"outcome"`
	Err     string         `json:"err,omitempty"`
}

// workerRequestFD is a worker's descriptor of requests in, unless
// --keep-fds passes descriptors from 3 up (startWorker: the worker gets
// them at their numbers, and its pipes after them, named by the hidden
// --worker-fd); replies go out on the next.
const workerRequestFD = 3

// workerConn is a worker's end of its pipes.
type workerConn struct {
	in, out *os.File
	dec     *json.Decoder
	enc     *json.Encoder
}

func openWorkerConn(requestFD int) *workerConn {
	in := os.NewFile(uintptr(requestFD), "requests")
	out := os.NewFile(uintptr(requestFD+1), "replies")
	return &workerConn{in: in, out: out, dec: json.NewDecoder(in), enc: json.NewEncoder(out)}
}

func (c *workerConn) close() {
	c.in.Close()
	c.out.Close()
}

// setup reads the worker's setup; ok is false when the request pipe
// closed first (the parent gave up before the search).
func (c *workerConn) setup() (ws workerSetup, ok bool, err error) {
	if err := c.dec.Decode(&ws); err != nil {
		if errors.Is(err, io.EOF) {
			return ws, false, nil
		}
		return ws, false, fmt.Errorf("worker: read the setup: %w", err)
	}
	return ws, true, nil
}

// serve is the worker's loop: it runs each request it reads and writes
// the outcome, until its request pipe closes.
func (c *workerConn) serve(ctx context.Context, run bisect.Runner) error {
	for {
		var r bisect.Request
		if err := c.dec.Decode(&r); err != nil {
			return nil // the search is over
		}
		r.Job = 0 // this worker's runs use its own --cpu
		o, err := run.Run(ctx, r)
		rep := workerReply{Outcome: o}
		if err != nil {
			rep.Err = err.Error()
		}
		if err := c.enc.Encode(rep); err != nil {
			return withCode(exitError, fmt.Errorf("worker: %w", err))
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// workerPool is the bisect.Runner of a parallel locate.
type workerPool struct {
	ws   []*worker
	quit chan struct{}
}

type worker struct {
	mu   sync.Mutex // one run at a time
	cmd  *exec.Cmd
	req  *os.File
	dec  *json.Decoder
	rep  *os.File
	dead error
}

// startWorkers starts one worker per CPU of cpus (-1: not pinned). The
// workers get this process's arguments with --jobs=1 --worker and their
// --cpu (and the same sandbox flags: each probes the sandbox too), and
// the descriptors keep at their numbers. They are started from a thread
// that stays until close, so that their parent-death signal (SIGKILL)
// fires only if envbisect dies.
func startWorkers(cpus, keep []int) (*workerPool, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("parallel runs: %w", err)
	}
	p := &workerPool{quit: make(chan struct{})}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // the workers' parent thread: it lives until close
		for _, cpu := range cpus {
			w, err := startWorker(self, cpu, keep)
			if err != nil {
				errc <- err
				return
			}
			p.ws = append(p.ws, w)
		}
		errc <- nil
		<-p.quit
	}()
	if err := <-errc; err != nil {
		close(p.quit)
		p.closeWorkers()
		return nil, err
	}
	return p, nil
}

func startWorker(self string, cpu int, keep []int) (*worker, error) {
	kept, closeKept, err := keptFiles(keep)
	if err != nil {
		return nil, fmt.Errorf("parallel runs: %w", err)
	}
	defer closeKept()
	args := workerArgs(os.Args[1:], cpu, workerRequestFD+len(kept))
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("parallel runs: %w", err)
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fmt.Errorf("parallel runs: %w", err)
	}
	cmd := exec.Command(self, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.ExtraFiles = append(kept, reqR, repW) // fds 3 and 4, or after the kept ones
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	err = cmd.Start()
	reqR.Close()
	repW.Close()
	if err != nil {
		reqW.Close()
		repR.Close()
		return nil, fmt.Errorf("parallel runs: start a worker: %w", err)
	}
	return &worker{cmd: cmd, req: reqW, rep: repR, dec: json.NewDecoder(repR)}, nil
}

// workerArgs are a worker's arguments: args (this locate's, after the
// program name) with the worker's flags put in before the "--" that
// starts the command, where they override the user's; requestFD is the
// worker's request pipe.
func workerArgs(args []string, cpu, requestFD int) []string {
	extra := []string{"--jobs=1", "--worker", "-q", "--cpu=" + cpuFlag(cpu)}
	if requestFD != workerRequestFD {
		extra = append(extra, "--worker-fd="+strconv.Itoa(requestFD))
	}
	for i, a := range args {
		if a == "--" {
			out := append(append(append([]string{}, args[:i]...), extra...), args[i:]...)
			return out
		}
	}
	return append(append([]string{}, args...), extra...)
}

func cpuFlag(cpu int) string {
	if cpu < 0 {
		return "any"
	}
	return strconv.Itoa(cpu)
}

// setup hands every worker its setup, before the first run.
func (p *workerPool) setup(ws workerSetup) error {
	b, err := json.Marshal(ws)
	if err != nil {
		return fmt.Errorf("parallel runs: %w", err)
	}
	for j, w := range p.ws {
		if _, err := w.req.Write(append(b, '\n')); err != nil {
			return fmt.Errorf("parallel runs: set up the worker for slot %d: %w", j, err)
		}
	}
	return nil
}

// Run sends r to the worker of its slot and waits for the outcome.
func (p *workerPool) Run(ctx context.Context, r bisect.Request) (bisect.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return bisect.Outcome{}, err
	}
	w := p.ws[r.Job%len(p.ws)]
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dead != nil {
		return bisect.Outcome{}, w.dead
	}
	b, _ := json.Marshal(r)
	if _, err := w.req.Write(append(b, '\n')); err != nil {
		w.dead = fmt.Errorf("worker for slot %d: %w", r.Job, err)
		return bisect.Outcome{}, w.dead
	}
	var rep workerReply
	if err := w.dec.Decode(&rep); err != nil {
		w.dead = fmt.Errorf("worker for slot %d ended: %w", r.Job, err)
		if ctx.Err() != nil {
			return bisect.Outcome{}, ctx.Err()
		}
		return bisect.Outcome{}, w.dead
	}
	if rep.Err != "" {
		if ctx.Err() != nil {
			return bisect.Outcome{}, ctx.Err()
		}
		return bisect.Outcome{}, errors.New(rep.Err)
	}
	return rep.Outcome, nil
}

// signal passes a signal envbisect received on to every worker; a nil
// pool does nothing.
func (p *workerPool) signal(sig os.Signal) {
	if p == nil {
		return
	}
	for _, w := range p.ws {
		w.cmd.Process.Signal(sig)
	}
}

// close ends the workers: their request pipes close, they exit; one that
// does not within 5 s is killed.
func (p *workerPool) close() {
	p.closeWorkers()
	close(p.quit)
}

func (p *workerPool) closeWorkers() {
	for _, w := range p.ws {
		w.req.Close()
	}
	for _, w := range p.ws {
		done := make(chan struct{})
		go func() {
			w.cmd.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			w.cmd.Process.Kill()
			<-done
		}
		w.rep.Close()
	}
}
