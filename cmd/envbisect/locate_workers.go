package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/envbisect/envbisect/bisect"
)

// Parallel runs (locate --jobs N). The tracer makes one run per process
// at a time (it owns the process's SIGCHLD disposition and waits for any
// child), so a parallel locate starts N workers: envbisect itself, as
// `locate --worker` with the same arguments, one per slot, each pinned to
// the slot's CPU (--cpu). A worker reads the trace once, then serves
// requests: one JSON bisect.Request per line on fd 3, one workerReply per
// line on fd 4. The search sends slot j's runs to worker j.

// workerReply is what a worker answers for one run.
type workerReply struct {
	Outcome bisect.Outcome `json:"outcome"`
	Err     string         `json:"err,omitempty"`
}

// Descriptors of a worker: requests in, replies out.
const (
	workerRequestFD = 3
	workerReplyFD   = 4
)

// serveRuns is the worker's loop: it runs each request it reads and
// writes the outcome, until its request pipe closes.
func serveRuns(ctx context.Context, run bisect.Runner) error {
	in := os.NewFile(workerRequestFD, "requests")
	out := os.NewFile(workerReplyFD, "replies")
	defer in.Close()
	defer out.Close()
	dec, enc := json.NewDecoder(in), json.NewEncoder(out)
	for {
		var r bisect.Request
		if err := dec.Decode(&r); err != nil {
			return nil // the search is over
		}
		r.Job = 0 // this worker's runs use its own --cpu
		o, err := run.Run(ctx, r)
		rep := workerReply{Outcome: o}
		if err != nil {
			rep.Err = err.Error()
		}
		if err := enc.Encode(rep); err != nil {
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
// --cpu (and the same sandbox flags: each probes the sandbox too). They
// are started from a thread that stays until close, so that their
// parent-death signal (SIGKILL) fires only if envbisect dies.
func startWorkers(cpus []int) (*workerPool, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("parallel runs: %w", err)
	}
	p := &workerPool{quit: make(chan struct{})}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // the workers' parent thread: it lives until close
		for _, cpu := range cpus {
			w, err := startWorker(self, cpu)
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

func startWorker(self string, cpu int) (*worker, error) {
	args := workerArgs(os.Args[1:], cpu)
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
	cmd.ExtraFiles = []*os.File{reqR, repW} // fds 3 and 4
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
// starts the command, where they override the user's.
func workerArgs(args []string, cpu int) []string {
	extra := []string{"--jobs=1", "--worker", "-q", "--cpu=" + cpuFlag(cpu)}
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
