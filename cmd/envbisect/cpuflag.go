package main

import (
	"fmt"
	"runtime"
	"strconv"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// --cpu: where the tracer and CMD run. record pins both to one CPU by
// default (auto); replay and locate follow the recording with auto, so
// that CMD sees the CPUs it saw there (trace.Placement).

// cpuHelp is --cpu's usage in replay and locate.
const cpuHelp = "run the tracer and CMD on one CPU: `N`, auto, or any (no pinning). auto follows the recording: " +
	"pinned when it was pinned, every CPU when it was recorded with --cpu any; a choice that differs from the recording is warned about"

// parseCPU reads --cpu as record takes it: a CPU number, "auto" (the
// last usable CPU, launch.DefaultCPU) or "any" (-1: no pinning).
func parseCPU(s string) (int, error) {
	switch s {
	case "auto", "":
		return launch.DefaultCPU(), nil
	case "any", "none":
		return -1, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n >= runtime.NumCPU() {
		return 0, usageError("--cpu %q: give a CPU number below %d, auto or any", s, runtime.NumCPU())
	}
	return n, nil
}

// runCPU reads --cpu for the runs of replay and locate, whose recording
// placed CMD as p says: auto leaves CMD unpinned when the recording did
// (record --cpu any) and pins it as record's auto does otherwise (a
// pinned recording, or one that does not say). An explicit choice that
// places CMD otherwise than the recording did (pinned where it was not,
// or the other way round) comes with a warning to print once: CMD sees
// another set of CPUs than in the recording.
func runCPU(s string, p trace.Placement) (cpu int, warning string, err error) {
	if s == "auto" || s == "" {
		if p.Unpinned() {
			return -1, "", nil
		}
		return launch.DefaultCPU(), "", nil
	}
	if cpu, err = parseCPU(s); err != nil {
		return 0, "", err
	}
	if p.Known && p.Pinned != (cpu >= 0) {
		how := "on every CPU it inherits"
		if cpu >= 0 {
			how = "pinned to CPU " + strconv.Itoa(cpu)
		}
		warning = fmt.Sprintf("--cpu %s: CMD runs %s, but the recording ran it %s: CMD sees another set of CPUs than in the recording; "+
			"what it asks of its CPUs (sched_getaffinity) is given the recorded answer in every run, so that no run fails and no call is named for it "+
			"(leave --cpu auto to place CMD as the recording did)", s, how, p.Describe())
	}
	return cpu, warning, nil
}

// recordedPlacement returns how the trace at path placed its command,
// from its start events, reading no further than its first event; a
// trace that cannot be read says nothing here (reading it whole reports
// why).
func recordedPlacement(path string) trace.Placement {
	r, err := tracefile.Open(path)
	if err != nil {
		return trace.Placement{}
	}
	defer r.Close()
	r.Next()
	return trace.PlacementOf(r.Start())
}
