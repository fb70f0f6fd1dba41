package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/container"
	"github.com/envbisect/envbisect/ebpfrec"
	"github.com/envbisect/envbisect/record"
	"github.com/envbisect/envbisect/recorder"
	"github.com/envbisect/envbisect/render"
)

// dockerFollower records each container the daemon starts (with the
// label) through the resident recorder: one observation trace each.
type dockerFollower struct {
	cancel context.CancelFunc
	wait   func() error
	wg     sync.WaitGroup

	mu      sync.Mutex
	running map[string]chan struct{} // container id: closed at its death
	stopped bool
}

// followContainers starts watching the daemon's events.
func followContainers(ctx context.Context, srv *recorder.Server, opts recorderOptions, logf func(string)) (*dockerFollower, error) {
	sock := opts.engine
	if sock == "" {
		sock = container.Sockets(os.Getenv)[0]
	}
	ctx, cancel := context.WithCancel(ctx)
	events, wait, err := container.Events(ctx, sock, opts.label)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("recorder: --docker: %w", err)
	}
	d := &dockerFollower{cancel: cancel, wait: wait, running: map[string]chan struct{}{}}
	which := "every container"
	if opts.label != "" {
		which = "containers labelled " + opts.label
	}
	logf(fmt.Sprintf("following %s the daemon at %s starts, traces in %s", which, sock, opts.dir))
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		for ev := range events {
			switch ev.Action {
			case "start":
				d.start(ctx, srv, sock, opts.dir, ev, logf)
			case "die":
				d.died(ev.ID)
			}
		}
		if err := wait(); err != nil {
			logf(fmt.Sprintf("the daemon's events ended: %v", err))
		}
	}()
	return d, nil
}

// start records one container until it dies or the recorder stops.
func (d *dockerFollower) start(ctx context.Context, srv *recorder.Server, sock, dir string, ev container.Event, logf func(string)) {
	t, err := container.Lookup(ctx, ev.ID, []string{sock})
	if err != nil {
		logf(fmt.Sprintf("container %s: %v", short(ev.ID), err))
		return
	}
	d.mu.Lock()
	if d.stopped || d.running[t.ID] != nil {
		d.mu.Unlock()
		return
	}
	done := make(chan struct{})
	d.running[t.ID] = done
	d.mu.Unlock()

	name := t.Name
	if name == "" {
		name = ev.Name
	}
	out := filepath.Join(dir, safeName(name)+"-"+short(t.ID)+".envb")
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		sum, err := record.Observe(record.ObserveOptions{
			Output: out, Replace: true, PID: t.PID, Done: done, MaxCapture: uint64(srv.MaxCapture()),
			OpenProbe: func(bpf.Options) (ebpfrec.Source, error) {
				l, err := srv.Local()
				if err != nil {
					return nil, err
				}
				return &announced{Local: l, announce: func() {
					logf(fmt.Sprintf("following container %s (%s, pid %d) to %s", render.Visible(name), short(t.ID), t.PID, out))
				}}, nil
			},
		})
		if err != nil {
			logf(fmt.Sprintf("container %s: %v", render.Visible(name), err))
			return
		}
		logf(fmt.Sprintf("container %s: recorded %d calls in %d processes to %s", render.Visible(name), sum.Calls, sum.Procs, out))
	}()
}

// announced is a recorder session that says when it first follows a
// process: from then on, nothing the container does is missed.
type announced struct {
	*recorder.Local
	once     sync.Once
	announce func()
}

func (a *announced) Track(tgid uint32) error {
	err := a.Local.Track(tgid)
	if err == nil {
		a.once.Do(a.announce)
	}
	return err
}

// died ends the recording of a container that exited.
func (d *dockerFollower) died(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if done := d.running[id]; done != nil {
		close(done)
		delete(d.running, id)
	}
}

// stop ends every recording (their traces are finished) and the watch.
func (d *dockerFollower) stop() {
	d.mu.Lock()
	d.stopped = true
	for id, done := range d.running {
		close(done)
		delete(d.running, id)
	}
	d.mu.Unlock()
	d.cancel()
	d.wg.Wait()
}

// short is a container id's usual 12-character form.
func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// safeName keeps a container name usable as a file name.
func safeName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "container"
	}
	return string(b)
}
