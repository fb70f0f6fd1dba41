package render

import (
	"encoding/json"
	"io"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// JSON objects of diff --json, one per line, each with "diff" first.

type jsonDiffCall struct {
	Diff string           `json:"diff"` // "call"
	Good JSONCall         `json:"good"`
	Bad  JSONCall         `json:"bad"`
	Ret  bool             `json:"ret"` // the return values differ
	Data []jsonDiffBuffer `json:"data,omitempty"`
	Sent []jsonDiffBuffer `json:"sent,omitempty"`
}

type jsonDiffBuffer struct {
	Arg      string          `json:"arg"` // the argument's name, as dataName
	Struct   string          `json:"struct,omitempty"`
	GoodLen  uint64          `json:"good_len"`
	BadLen   uint64          `json:"bad_len"`
	Offset   *int            `json:"offset,omitempty"` // first differing byte
	Fields   []jsonDiffField `json:"fields,omitempty"`
	OnlyGood []string        `json:"only_good,omitempty"` // directory entries
	OnlyBad  []string        `json:"only_bad,omitempty"`
	Note     string          `json:"note,omitempty"`
}

type jsonDiffField struct {
	Name string `json:"name"`
	Good string `json:"good"`
	Bad  string `json:"bad"`
}

type jsonDiffOneSided struct {
	Diff string    `json:"diff"` // "only_good" or "only_bad"
	Good *JSONCall `json:"good,omitempty"`
	Bad  *JSONCall `json:"bad,omitempty"`
}

type jsonDiffExit struct {
	Diff string        `json:"diff"` // "exit"
	Good *jsonExitInfo `json:"good"` // null: no exit recorded
	Bad  *jsonExitInfo `json:"bad"`
}

type jsonExitInfo struct {
	Proc   uint32 `json:"proc"`
	Status int    `json:"status"`
	Signal string `json:"signal,omitempty"`
}

type jsonDiffOrphan struct {
	Diff   string   `json:"diff"` // proc_only_good, proc_only_bad, thread_only_good, thread_only_bad
	Proc   uint32   `json:"proc"`
	TID    uint32   `json:"tid,omitempty"` // threads
	Label  string   `json:"label"`
	Exe    string   `json:"exe,omitempty"`
	Argv   []string `json:"argv,omitempty"`
	Parent uint32   `json:"parent,omitempty"`
	Calls  int      `json:"calls"`
}

type jsonDiffStart struct {
	Diff string  `json:"diff"` // "start"
	Kind string  `json:"kind"`
	Name string  `json:"name,omitempty"`
	Good *string `json:"good"` // null: absent
	Bad  *string `json:"bad"`
}

type jsonDiffSummary struct {
	Diff            string `json:"diff"` // "summary"
	Compared        int    `json:"compared"`
	Differ          int    `json:"differ"`
	OnlyGood        int    `json:"only_good"`
	OnlyBad         int    `json:"only_bad"`
	ThreadsMatched  int    `json:"threads_matched"`
	ThreadsOnlyGood int    `json:"threads_only_good"`
	ThreadsOnlyBad  int    `json:"threads_only_bad"`
	Exits           int    `json:"exits"`
	Start           int    `json:"start"`
}

// WriteDiffJSON writes a Result as JSON lines, strings and buffers cut
// after size bytes (0: never).
func WriteDiffJSON(w io.Writer, tab *systable.Table, res *align.Result, size int) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	call := func(c *trace.Call) JSONCall { return NewJSONCall(tab, c, size) }
	for _, td := range res.Threads {
		for i, s := range td.Steps {
			var v any
			switch s.Kind {
			case align.Pair:
				cd := td.Diffs[i]
				if cd == nil {
					continue
				}
				a, b := td.CallsA[s.I], td.CallsB[s.J]
				row := tab.ByNr(int(a.Nr))
				v = jsonDiffCall{Diff: "call", Good: call(a), Bad: call(b), Ret: cd.Ret,
					Data: jsonBuffers(row, cd.Data), Sent: jsonBuffers(row, cd.Sent)}
			case align.OnlyA:
				c := call(td.CallsA[s.I])
				v = jsonDiffOneSided{Diff: "only_good", Good: &c}
			case align.OnlyB:
				c := call(td.CallsB[s.J])
				v = jsonDiffOneSided{Diff: "only_bad", Bad: &c}
			}
			if err := enc.Encode(v); err != nil {
				return err
			}
		}
	}
	for _, e := range res.Exits {
		if err := enc.Encode(jsonDiffExit{Diff: "exit", Good: exitInfo(e.ProcA, e.A), Bad: exitInfo(e.ProcB, e.B)}); err != nil {
			return err
		}
	}
	for _, side := range []struct {
		name    string
		t       *align.Tree
		threads []uint32
		matched func(uint32) bool
	}{
		{"good", res.A, res.OnlyA, func(p uint32) bool { _, ok := res.Mapping.Procs[p]; return ok }},
		{"bad", res.B, res.OnlyB, func(p uint32) bool { _, ok := res.Mapping.ProcA(p); return ok }},
	} {
		for _, o := range orphanList(side.t, side.threads, side.matched) {
			v := jsonDiffOrphan{Diff: "proc_only_" + side.name, Calls: o.calls}
			if o.thread {
				th := side.t.Threads[o.id]
				v.Diff, v.Proc, v.TID, v.Label = "thread_only_"+side.name, th.Proc, th.ID, side.t.Label(th.ID)
			} else {
				p := side.t.Procs[o.id]
				v.Proc, v.Label, v.Parent = p.ID, side.t.Label(p.Main), p.Parent
				if len(p.Execs) > 0 {
					v.Exe, v.Argv = p.Execs[len(p.Execs)-1].Exe, p.Execs[len(p.Execs)-1].Argv
				}
			}
			if err := enc.Encode(v); err != nil {
				return err
			}
		}
	}
	for _, s := range res.Start {
		v := jsonDiffStart{Diff: "start", Kind: string(s.Kind), Name: s.Name}
		if s.A != nil {
			v.Good = &s.A.Value
		}
		if s.B != nil {
			v.Bad = &s.B.Value
		}
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	return enc.Encode(jsonDiffSummary{Diff: "summary", Compared: res.Compared, Differ: res.Differ,
		OnlyGood: res.OnlyACalls, OnlyBad: res.OnlyBCalls, ThreadsMatched: len(res.Threads),
		ThreadsOnlyGood: len(res.OnlyA), ThreadsOnlyBad: len(res.OnlyB), Exits: len(res.Exits), Start: len(res.Start)})
}

func jsonBuffers(row *systable.Syscall, dds []align.DataDiff) []jsonDiffBuffer {
	var out []jsonDiffBuffer
	for i := range dds {
		dd := &dds[i]
		b := jsonDiffBuffer{Arg: dataName(row, dd), Struct: dd.Struct, GoodLen: dd.LenA, BadLen: dd.LenB,
			OnlyGood: dd.OnlyA, OnlyBad: dd.OnlyB, Note: dd.Note}
		if dd.Offset >= 0 {
			off := dd.Offset
			b.Offset = &off
		}
		for _, f := range dd.Fields {
			b.Fields = append(b.Fields, jsonDiffField{Name: f.Name, Good: f.A, Bad: f.B})
		}
		out = append(out, b)
	}
	return out
}

func exitInfo(proc uint32, e *trace.ProcEvent) *jsonExitInfo {
	if e == nil {
		return nil
	}
	x := &jsonExitInfo{Proc: proc, Status: e.Status}
	if e.Signal != 0 {
		x.Signal = systable.SignalName(e.Signal)
	}
	return x
}
