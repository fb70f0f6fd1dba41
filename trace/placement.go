package trace

// How envbisect placed the command on the CPUs. By default a traced run
// pins the command, and the tracer, to one CPU (a ptrace stop is then a
// context switch, not a cross-CPU wake-up); `--cpu any` leaves it the
// CPUs it inherits. A command that asks which CPUs it may run on
// (sched_getaffinity: nproc, Python's os.sched_getaffinity, glibc's
// malloc arenas) sees envbisect's choice, not its environment's, when
// it was pinned: the recording says which it was, so that locate and
// replay can make their runs alike and never take a difference of
// envbisect's own making for the environment's.

// StartCPUs: the CPUs the command started with. Name says who chose
// them: CPUsPinned when envbisect pinned the command there (record --cpu
// auto or N), CPUsInherited when it left the command the CPUs it
// inherited (--cpu any, or a machine that lets it use one CPU only).
// Value the CPU list ("1", "0-3"). Traces written before this event
// existed have none: how they were placed is not known (PlacementOf).
const StartCPUs StartKind = "cpus"

// Names of the StartCPUs event.
const (
	CPUsPinned    = "pinned"
	CPUsInherited = "inherited"
)

// Placement is how a recording's command was placed on the CPUs.
type Placement struct {
	// Known is false for a trace without a StartCPUs event (written
	// before it existed); the other fields are then zero.
	Known bool
	// Pinned: envbisect pinned the command to CPUs; false: it ran on the
	// CPUs it inherited.
	Pinned bool
	// CPUs is the CPU list it started with ("1", "0-3").
	CPUs string
}

// PlacementOf returns how the command of a recording with start events
// start was placed.
func PlacementOf(start []StartEvent) Placement {
	for _, e := range start {
		if e.Kind == StartCPUs {
			return Placement{Known: true, Pinned: e.Name == CPUsPinned, CPUs: e.Value}
		}
	}
	return Placement{}
}

// Unpinned reports whether the recording is known to have left the
// command its inherited CPUs.
func (p Placement) Unpinned() bool { return p.Known && !p.Pinned }

// OwnDoing reports whether what a command learns of its CPUs
// (systable's Placement column) can differ between the recording and a
// run for envbisect's own doing, the run pinned (runPinned) or not:
// when envbisect pinned the command on either side, or the recording
// does not say. Only when neither side was pinned is a difference the
// environment's (a good machine with 8 CPUs, here 2; a container's
// cpuset; a taskset around the command).
func (p Placement) OwnDoing(runPinned bool) bool {
	return runPinned || !p.Unpinned()
}

// Describe says how a recording placed its command, for a message: "pinned
// to CPU 1 (--cpu auto or N)", "on the CPUs it inherited, 0-3 (--cpu
// any)", "not recorded (a trace from before envbisect recorded it)".
func (p Placement) Describe() string {
	switch {
	case !p.Known:
		return "not recorded (a trace from before envbisect recorded it)"
	case p.Pinned:
		return "pinned to CPU " + p.CPUs + " (--cpu auto or N)"
	}
	return "on the CPUs it inherited, " + p.CPUs + " (--cpu any)"
}
