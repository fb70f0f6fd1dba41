package ebpfrec

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracer"
)

// Observation says what Observe watches: every task of one cgroup (a
// container's), without starting anything.
type Observation struct {
	Cgroup     uint64        // the cgroup v2 id
	Duration   time.Duration // 0: until a signal comes on Interrupt
	Table      *systable.Table
	Observer   tracer.Observer
	MaxCapture uint64
	Exclude    []string
	Interrupt  <-chan os.Signal
}

// Observe records what the tasks of a cgroup do for a while: an
// observation trace, which has no command to re-run. Processes found
// running are numbered as they are first seen, their fds and cwd read
// from /proc then.
func Observe(ob Observation, o Options) (*tracer.Result, *trace.Losses, error) {
	if ob.Table == nil || ob.Observer == nil || ob.Cgroup == 0 {
		return nil, nil, errors.New("ebpfrec: Observation needs Table, Observer and Cgroup")
	}
	if ob.Duration <= 0 && ob.Interrupt == nil {
		return nil, nil, errors.New("ebpfrec: an observation needs a duration or an interrupt")
	}
	filter, err := tracer.NewContentFilter(ob.Exclude)
	if err != nil {
		return nil, nil, err
	}
	probe, err := bpf.Load(probeOptions(ob.Table, o, bpf.Filter{Kind: bpf.FilterCgroup, Cgroup: ob.Cgroup}, ob.MaxCapture))
	if err != nil {
		return nil, nil, err
	}
	defer probe.Close()
	asm := newAssembler(ob.Table, ob.Observer, filter, monotonic())
	asm.attached = true
	ob.Observer.Start(nil)
	reading := startReading(probe, asm)
	res := &tracer.Result{Backend: trace.BackendEBPF, Filtered: ob.Table.NoStop(), CheckStatus: -1}
	var deadline <-chan time.Time
	if ob.Duration > 0 {
		t := time.NewTimer(ob.Duration)
		defer t.Stop()
		deadline = t.C
	}
	select {
	case <-deadline:
	case <-ob.Interrupt:
		res.Interrupted = true
	}
	reading.stop()
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
