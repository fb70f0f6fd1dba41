package bisect

import (
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/render"
)

// MaterializedReport is locate's report of an object search that the
// caller did not fall back from (res.Fallback is false): its status, its
// message and runs, the mechanism "materialized" and the search's result
// in Objects (its causes, each with its fix, and its steps). command is
// the command the runs ran.
func MaterializedReport(res *ObjectReport, command []string) *Report {
	status := map[envobj.Status]Status{
		envobj.Located: Located, envobj.NoFailure: NoFailure, envobj.StillFails: ReplayStillFails,
		envobj.Inconclusive: Inconclusive, envobj.Unconfirmed: Unconfirmed, envobj.NotRepeatable: NotRepeatable,
	}[res.Status]
	if status == "" {
		status = Inconclusive
	}
	rep := &Report{SchemaVersion: render.LocateSchemaVersion, Status: status, Message: res.Message, Command: command,
		Mechanism: envobj.Materialized, Objects: res, Runs: res.Runs, ConfirmRuns: res.ConfirmRuns,
		StartItems: res.StartItems, Steps: objectSteps(res.Steps), Seconds: res.Seconds, Warnings: res.Warnings}
	// The run with nothing in place made again (the repeatability check)
	// is a repeat run, as in the call-level report: on top of Runs.
	if n := len(res.Steps); n >= 2 && res.Steps[0].InPlace == envobj.InPlaceNothing && res.Steps[1].InPlace == envobj.InPlaceNothing &&
		res.Steps[1].Role == "" && rep.Runs > 1 {
		rep.RepeatRuns, rep.Runs = 1, rep.Runs-1
	}
	return rep
}

// AfterObjects completes rep, the report of the call-level search (Locate)
// that the caller made because the object search fell back (res), with
// that search's result: the mechanism "call-level", and in Objects why
// the object search named nothing and the objects no run could put in
// place. The runs of the object search are in Objects, not in rep.Runs.
func AfterObjects(rep *Report, res *ObjectReport) {
	rep.Mechanism = envobj.CallLevel
	rep.Objects = res
}

// objectSteps are the object search's runs as the report's steps, so
// that "steps" lists every run locate made whichever search made it
// (Objects.Steps says what each put in place).
func objectSteps(steps []envobj.ResultStep) []Step {
	out := make([]Step, 0, len(steps))
	for _, st := range steps {
		s := Step{Step: st.Step, Role: st.Role, Detail: st.Detail, Seconds: st.Seconds, Note: st.Note}
		s.Verdict.UnmarshalText([]byte(st.Verdict)) // a name the object search wrote; else 0, left out
		s.Taken.UnmarshalText([]byte(st.Taken))
		out = append(out, s)
	}
	return out
}
