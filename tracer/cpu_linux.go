package tracer

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// pinTracer puts the calling (tracer) thread on CPU 0 and every other
// thread of envbisect on the remaining CPUs. Must be called on the tracer
// thread.
func pinTracer() {
	var mine, others unix.CPUSet
	mine.Set(0)
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		return
	}
	for i := 1; i < 1024; i++ {
		if all.IsSet(i) {
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
