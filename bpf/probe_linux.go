//go:build linux && amd64

package bpf

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/link"
	"github.com/cilium/ebpf/ringbuf"
	"golang.org/x/sys/unix"
)

// Probe is the loaded and attached recorder. Read its records with Read
// from one goroutine; Track, Lost, SetDeadline and Close may be called
// from any.
type Probe struct {
	objs   recordObjects
	links  []link.Link
	rd     *ringbuf.Reader
	poll   time.Duration
	filter FilterKind

	rec     ringbuf.Record // reused by Read and ReadBatch
	scratch scratch        // ReadBatch's decoded records
	stats   ReaderStats    // ReadBatch's

	mu       sync.Mutex
	deadline time.Time

	closeOnce sync.Once
	closeErr  error
}

// Load checks opts, loads the programs and maps into the kernel, fills the
// syscall descriptors, attaches the programs to their tracepoints and
// opens the ring buffer. Recording starts at once: with FilterCgroup for
// every task in the cgroup, with FilterTree for the processes given to
// Track. Without the privilege to load eBPF programs it returns an error
// matching ErrPermission.
func Load(opts Options) (*Probe, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	descs := make(map[uint32]recordSyscallDesc, len(o.Syscalls))
	for nr, d := range o.Syscalls {
		pd, err := programDesc(nr, d)
		if err != nil {
			return nil, fmt.Errorf("eBPF recorder: %w", err)
		}
		descs[nr] = pd
	}
	requests, err := requestKeys(&o)
	if err != nil {
		return nil, fmt.Errorf("eBPF recorder: %w", err)
	}

	spec, err := loadRecord()
	if err != nil {
		return nil, fmt.Errorf("eBPF recorder: %w", err)
	}
	cpus, err := ebpf.PossibleCPU()
	if err != nil {
		return nil, fmt.Errorf("eBPF recorder: count CPUs: %w", err)
	}
	if err := configure(spec, &o, cpus); err != nil {
		return nil, fmt.Errorf("eBPF recorder: %w", err)
	}
	p := &Probe{poll: o.Poll, filter: o.Filter.Kind}
	if err := spec.LoadAndAssign(&p.objs, nil); err != nil {
		// Kernels before 5.11 charge eBPF memory to RLIMIT_MEMLOCK
		// (EPERM past it): lift it and load again. Not with
		// github.com/cilium/ebpf/rlimit, whose init creates a map in
		// every process of envbisect, each run's helper included.
		if !errors.Is(err, unix.EPERM) {
			return nil, loadError("load programs", err)
		}
		inf := unix.Rlimit{Cur: unix.RLIM_INFINITY, Max: unix.RLIM_INFINITY}
		if lerr := unix.Setrlimit(unix.RLIMIT_MEMLOCK, &inf); lerr != nil {
			return nil, loadError("load programs", fmt.Errorf("%w (and lifting the locked-memory limit failed: %v)", err, lerr))
		}
		p.objs = recordObjects{}
		if err := spec.LoadAndAssign(&p.objs, nil); err != nil {
			return nil, loadError("load programs", err)
		}
	}
	if err := p.fill(descs, requests); err != nil {
		p.objs.Close()
		return nil, err
	}
	if err := p.attach(); err != nil {
		p.Close()
		return nil, err
	}
	p.rd, err = ringbuf.NewReader(p.objs.Rb)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("eBPF recorder: open the ring buffer: %w", err)
	}
	return p, nil
}

func (o Options) withDefaults() (Options, error) {
	if o.RingSize == 0 {
		o.RingSize = DefaultRingSize(runtime.NumCPU())
	}
	if o.MaxCapture == 0 {
		o.MaxCapture = DefaultMaxCapture
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPoll
	}
	switch {
	case o.RingSize < pageSize || o.RingSize&(o.RingSize-1) != 0 || o.RingSize > 1<<30:
		return o, fmt.Errorf("eBPF recorder: ring size %d is not a power of two between %d and 1 GiB", o.RingSize, pageSize)
	case o.MaxCapture > bufferMax:
		return o, fmt.Errorf("eBPF recorder: max capture %d is over the program's bound of %d bytes", o.MaxCapture, bufferMax)
	case o.Filter.Kind != FilterTree && o.Filter.Kind != FilterCgroup:
		return o, fmt.Errorf("eBPF recorder: unknown filter kind %d", o.Filter.Kind)
	case o.Filter.Kind == FilterCgroup && o.Filter.Cgroup == 0:
		return o, errors.New("eBPF recorder: FilterCgroup needs a cgroup id")
	}
	return o, nil
}

// pageSize is the ring buffer's granularity (x86-64 pages).
const pageSize = 4096

// configure writes the load-time constants and map sizes into spec.
func configure(spec *ebpf.CollectionSpec, o *Options, cpus int) error {
	var s recordSpecs
	if err := spec.Assign(&s); err != nil {
		return err
	}
	filter := recordFilterKindFILTER_TREE
	if o.Filter.Kind == FilterCgroup {
		filter = recordFilterKindFILTER_CGROUP
	}
	groupDead, err := exitHasGroupDead()
	if err != nil {
		return err
	}
	for _, v := range []struct {
		spec *ebpf.VariableSpec
		val  any
	}{
		{s.Filter, uint32(filter)},
		{s.CgroupId, o.Filter.Cgroup},
		{s.MaxCapture, o.MaxCapture},
		{s.WakeupBytes, uint64(o.RingSize / 4)},
		{s.ExitHasGroupDead, boolU32(groupDead)},
	} {
		if err := v.spec.Set(v.val); err != nil {
			return fmt.Errorf("set %s: %w", v.spec.Type().Name, err)
		}
	}
	s.Rb.MaxEntries = uint32(o.RingSize)
	s.Scratch.MaxEntries = uint32(cpus)
	return nil
}

func boolU32(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// fill writes the syscall descriptors and request sizes.
func (p *Probe) fill(descs map[uint32]recordSyscallDesc, requests map[uint64]recordSizeDir) error {
	for nr, d := range descs {
		if err := p.objs.Descs.Put(nr, d); err != nil {
			return fmt.Errorf("eBPF recorder: describe syscall %d: %w", nr, err)
		}
	}
	for key, sd := range requests {
		if err := p.objs.Requests.Put(key, sd); err != nil {
			return fmt.Errorf("eBPF recorder: describe request %#x: %w", key, err)
		}
	}
	return nil
}

// attach links each program to its raw tracepoint.
func (p *Probe) attach() error {
	for _, a := range []struct {
		name string
		prog *ebpf.Program
	}{
		// Process life first, so that no call is seen of a child whose
		// fork was missed.
		{"sched_process_fork", p.objs.SchedProcessFork},
		{"sched_process_exec", p.objs.SchedProcessExec},
		{"sched_process_exit", p.objs.SchedProcessExit},
		{"sys_exit", p.objs.SysExit},
		{"sys_enter", p.objs.SysEnter},
	} {
		l, err := link.AttachRawTracepoint(link.RawTracepointOptions{Name: a.name, Program: a.prog})
		if err != nil {
			return loadError("attach to raw tracepoint "+a.name, err)
		}
		p.links = append(p.links, l)
	}
	return nil
}

// Track records the process tgid and, from now on, every process and
// thread it creates. Threads it already has are recorded too. It needs
// FilterTree. Start the process stopped (or gated, as on a pipe) and call
// Track before it runs, or its first calls are missed.
func (p *Probe) Track(tgid uint32) error {
	if p.filter != FilterTree {
		return fmt.Errorf("eBPF recorder: track process %d: the probe records a cgroup (FilterCgroup), not a process tree", tgid)
	}
	if err := p.objs.Tracked.Put(tgid, uint8(1)); err != nil {
		return fmt.Errorf("eBPF recorder: track process %d: %w", tgid, err)
	}
	return nil
}

// Untrack stops following the process tgid: the processes it creates
// from now on are not recorded. Its threads that already made a recorded
// call go on being recorded (the probe keeps their entry until they exit).
func (p *Probe) Untrack(tgid uint32) error {
	if err := p.objs.Tracked.Delete(tgid); err != nil && !errors.Is(err, ebpf.ErrKeyNotExist) {
		return fmt.Errorf("eBPF recorder: untrack process %d: %w", tgid, err)
	}
	return nil
}

// ProgramIDs returns the kernel's ids of the loaded programs (what
// `bpftool prog show id N` shows), to check that Close unloaded them.
func (p *Probe) ProgramIDs() ([]uint32, error) {
	var ids []uint32
	for _, prog := range []*ebpf.Program{p.objs.SysEnter, p.objs.SysExit, p.objs.SchedProcessFork,
		p.objs.SchedProcessExec, p.objs.SchedProcessExit} {
		info, err := prog.Info()
		if err != nil {
			return nil, fmt.Errorf("eBPF recorder: program info: %w", err)
		}
		id, ok := info.ID()
		if !ok {
			return nil, errors.New("eBPF recorder: the kernel does not give program ids")
		}
		ids = append(ids, uint32(id))
	}
	return ids, nil
}

// Lost returns what the program could not deliver so far, summed over
// CPUs.
func (p *Probe) Lost() (Lost, error) {
	var per []recordLost
	if err := p.objs.Lost.Lookup(uint32(0), &per); err != nil {
		return Lost{}, fmt.Errorf("eBPF recorder: read the loss counters: %w", err)
	}
	var l Lost
	for _, c := range per {
		l.Calls += c.Calls
		l.Chunks += c.Chunks
		l.Procs += c.Procs
	}
	return l, nil
}

// Close detaches the programs and frees the maps and the ring buffer. A
// Read blocked in another goroutine returns an error wrapping
// os.ErrClosed. Records still in the ring are lost: drain first (see
// SetDeadline).
func (p *Probe) Close() error {
	p.closeOnce.Do(func() {
		var errs []error
		if p.rd != nil {
			errs = append(errs, p.rd.Close())
		}
		for i := len(p.links) - 1; i >= 0; i-- {
			errs = append(errs, p.links[i].Close())
		}
		errs = append(errs, p.objs.Close())
		if err := errors.Join(errs...); err != nil {
			p.closeErr = fmt.Errorf("eBPF recorder: close: %w", err)
		}
	})
	return p.closeErr
}

// ProgramLoaded reports whether a program of that id is still in the
// kernel. The kernel frees a program some time after its last reference
// is gone (after an RCU grace period), not at Close.
func ProgramLoaded(id uint32) bool {
	p, err := ebpf.NewProgramFromID(ebpf.ProgramID(id))
	if err != nil {
		return false
	}
	p.Close()
	return true
}
