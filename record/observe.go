package record

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/ebpfrec"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// ObserveOptions says what to observe: every process of a container, for
// a while, with the eBPF recorder, without starting anything.
type ObserveOptions struct {
	Output  string
	Replace bool        // replace Output even when it is not a trace (record --force)
	Join    *trace.Join // the container: its cgroup is what is recorded
	// PID, when set, records that process, its threads and descendants
	// instead of Join's cgroup (record --pid PID --attach).
	PID        int
	Duration   time.Duration
	RingSize   int
	MaxCapture uint64
	Exclude    []string
	Interrupt  <-chan os.Signal
	// Done, when it closes, ends the observation (the container is
	// gone); the trace is not marked interrupted.
	Done <-chan struct{}
	// OpenProbe, when set, gives the observation its records instead of
	// a probe loaded for it (a resident recorder's own session).
	OpenProbe func(bpf.Options) (ebpfrec.Source, error)
}

// Observe records an observation trace (Header.Observed): show, diff and
// deps read it; locate needs a command to re-run and refuses it.
func Observe(opts ObserveOptions) (*Summary, error) {
	if opts.PID == 0 && (opts.Join == nil || opts.Join.CgroupID == 0) {
		return nil, errors.New("observe: no container cgroup to observe: give --container NAME, or --pid PID to observe a process")
	}
	table, err := systable.Native()
	if err != nil {
		return nil, err
	}
	hdr := newHeader(table, opts.Exclude, ebpfrec.MaxCapture(opts.MaxCapture), opts.Join)
	hdr.Backend, hdr.RingSize, hdr.Observed = trace.BackendEBPF, uint64(ebpfrec.RingSize(opts.RingSize)), true
	hdr.ASLR = true // processes started by others: their randomisation is theirs
	if hdr.Salt, err = trace.NewSalt(); err != nil {
		return nil, err
	}
	w, err := tracefile.Options{Replace: opts.Replace}.Create(opts.Output, hdr)
	if err != nil {
		return nil, err
	}
	b := newBatcher(w)
	g, err := newGuard(b, table, opts.Exclude, envPolicy{}, hdr.Salt, nil)
	if err != nil {
		b.close()
		w.Discard()
		return nil, err
	}
	res, lost, runErr := ebpfrec.Observe(ebpfrec.Observation{
		Cgroup: cgroupOf(opts.Join), PID: opts.PID, Duration: opts.Duration, Table: table, Observer: g,
		MaxCapture: opts.MaxCapture, Exclude: opts.Exclude, Interrupt: opts.Interrupt, Done: opts.Done,
	}, ebpfrec.Options{RingSize: opts.RingSize, Open: opts.OpenProbe})
	written, writeErr := b.close()
	if runErr != nil {
		var ce *launch.CompatError
		if written == 0 || errors.As(runErr, &ce) {
			// Nothing seen, or the observation was refused (32-bit
			// calls, which no trace can hold): leave no trace.
			w.Discard()
		} else {
			w.Abort()
		}
		return nil, runErr
	}
	if writeErr != nil {
		w.Abort()
		return nil, fmt.Errorf("trace %s is incomplete: it holds the first %d events, then: %w", opts.Output, written, writeErr)
	}
	names, redacted, excluded := g.counts()
	end := &trace.End{Finished: time.Now().UTC(), Calls: res.Calls, Procs: res.Procs, Threads: res.Threads,
		Interrupted: res.Interrupted, Lost: lost, Redacted: names, RedactedBuffers: redacted, ExcludedBuffers: excluded}
	if err := w.Close(end); err != nil {
		return nil, fmt.Errorf("finish trace %s: %w", opts.Output, err)
	}
	sum := &Summary{Calls: res.Calls, Procs: res.Procs, Threads: res.Threads, Backend: res.Backend,
		Interrupted: res.Interrupted, Lost: lost, Redacted: names, RedactedBuffers: redacted, ExcludedBuffers: excluded}
	if fi, err := os.Stat(opts.Output); err == nil {
		sum.Bytes = fi.Size()
	}
	return sum, nil
}

func cgroupOf(j *trace.Join) uint64 {
	if j == nil {
		return 0
	}
	return j.CgroupID
}
