package ebpfrec

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Observation says what Observe watches, without starting anything:
// every task of one cgroup (a container's), or one process and what it
// starts.
type Observation struct {
	Cgroup     uint64        // the cgroup v2 id
	PID        int           // instead of Cgroup: this process, its threads and descendants
	Duration   time.Duration // 0: until a signal comes on Interrupt
	Table      *systable.Table
	Observer   launch.Observer
	MaxCapture uint64
	Exclude    []string
	Interrupt  <-chan os.Signal
	// Done, when it closes, ends the observation as its Duration would
	// (the container it watched is gone); nil: never.
	Done <-chan struct{}
}

// Observe records what the tasks of a cgroup do for a while: an
// observation trace, which has no command to re-run. Processes found
// running are numbered as they are first seen, their fds and cwd read
// from /proc then.
func Observe(ob Observation, o Options) (*trace.RunResult, *trace.Losses, error) {
	if ob.Table == nil || ob.Observer == nil || ob.Cgroup == 0 && ob.PID == 0 {
		return nil, nil, errors.New("ebpfrec: Observation needs Table, Observer and a Cgroup or PID")
	}
	if ob.Duration <= 0 && ob.Interrupt == nil && ob.Done == nil {
		return nil, nil, errors.New("ebpfrec: an observation needs a duration or an interrupt")
	}
	content, err := launch.NewContentFilter(ob.Exclude)
	if err != nil {
		return nil, nil, err
	}
	filter := bpf.Filter{Kind: bpf.FilterCgroup, Cgroup: ob.Cgroup}
	if ob.PID != 0 {
		filter = bpf.Filter{Kind: bpf.FilterTree}
	}
	probe, err := open(o, probeOptions(ob.Table, o, filter, ob.MaxCapture))
	if err != nil {
		return nil, nil, err
	}
	defer probe.Close()
	if ob.PID != 0 {
		// The process and the descendants it has now; the probe follows
		// the ones it makes.
		for _, pid := range launch.NewTree(ob.PID).Members() {
			if err := probe.Track(uint32(pid)); err != nil {
				return nil, nil, fmt.Errorf("track process %d: %w", pid, err)
			}
		}
	}
	asm := newAssembler(ob.Table, ob.Observer, content, monotonic())
	asm.attached = true
	refused := make(chan struct{})
	asm.refuse = func() { close(refused) } // an i386 call: called once
	ob.Observer.Start(nil)
	reading := startReading(probe, asm)
	res := &trace.RunResult{Backend: trace.BackendEBPF, Filtered: ob.Table.NoStop(), CheckStatus: -1}
	var deadline <-chan time.Time
	if ob.Duration > 0 {
		t := time.NewTimer(ob.Duration)
		defer t.Stop()
		deadline = t.C
	}
	select {
	case <-deadline:
	case <-ob.Done:
	case <-ob.Interrupt:
		res.Interrupted = true
	case <-refused:
	}
	reading.stop()
	if asm.compat != nil {
		return nil, nil, asm.compat
	}
	asm.finish()
	res.Procs, res.Threads, res.Calls = asm.counts()
	lost, err := probe.Lost()
	if err != nil {
		return nil, nil, fmt.Errorf("read the probe's loss counters: %w", err)
	}
	losses := asm.lost
	losses.Calls, losses.Chunks, losses.Procs = lost.Calls, lost.Chunks, lost.Procs
	return res, &losses, reading.err
}
