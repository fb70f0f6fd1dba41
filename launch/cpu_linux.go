package launch

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// PinTracer puts the calling (tracer) thread on cpu and every other
// thread of envbisect on the remaining CPUs, where the encoding and
// compression of the trace then run. Must be called on the tracer thread.
func PinTracer(cpu int) {
	var mine, others unix.CPUSet
	mine.Set(cpu)
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		return
	}
	for i := 0; i < 1024; i++ {
		if i != cpu && all.IsSet(i) {
			others.Set(i)
		}
	}
	if others.Count() == 0 {
		return
	}
	self := unix.Gettid()
	unix.SchedSetaffinity(0, &mine)
	ents, _ := os.ReadDir("/proc/self/task")
	for _, e := range ents {
		tid, err := strconv.Atoi(e.Name())
		if err == nil && tid != self {
			unix.SchedSetaffinity(tid, &others)
		}
	}
}

// DefaultCPU returns the CPU a traced run pins itself and its command to
// by default: the last one this process may use, or -1 when it may use
// only one (pinning then changes nothing).
//
// A ptrace stop costs a few microseconds when tracer and tracee share a
// CPU and several times that when the tracer must be woken on another
// (an inter-processor interrupt, and in a VM an exit to the hypervisor),
// so sharing one CPU is the faster default for the syscall-heavy commands
// envbisect records. Commands that compute in parallel can opt out.
func DefaultCPU() int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil || set.Count() < 2 {
		return -1
	}
	last := -1
	for i := 0; i < 1024; i++ {
		if set.IsSet(i) {
			last = i
		}
	}
	return last
}

// SpreadLater returns a function that puts every thread of envbisect
// back on the CPUs the calling thread may use now. Record calls it
// before a pinned run (PinTracer keeps its other threads off the
// tracer's CPU) and the function after it, so that the file contents
// still being compressed when the command has ended use every CPU.
func SpreadLater() func() {
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		return func() {}
	}
	return func() {
		ents, _ := os.ReadDir("/proc/self/task")
		for _, e := range ents {
			if tid, err := strconv.Atoi(e.Name()); err == nil {
				unix.SchedSetaffinity(tid, &all)
			}
		}
	}
}
