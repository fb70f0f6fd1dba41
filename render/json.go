package render

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/envbisect/envbisect/trace"
)

// JSON writes a trace as JSON lines: one object per header, start event,
// call, process event and end, each with "event" as its first member.
// When the filter selects syscalls, only the selected calls are written:
// a program that asked for reads gets reads.
type JSON struct {
	enc *json.Encoder
	d   *decoder
	o   Options
}

// NewJSON returns a JSON writing to w, decoding calls with tab.
func NewJSON(w io.Writer, tab Rows, o Options) *JSON {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &JSON{enc: enc, d: newDecoder(tab), o: o}
}

// JSONCall is one call in JSON output.
type JSONCall struct {
	Event     string    `json:"event"` // "call"
	Seq       uint64    `json:"seq"`   // global, 1-based
	Proc      uint32    `json:"proc"`  // logical process
	TID       uint32    `json:"tid"`   // logical thread
	TSeq      uint64    `json:"tseq"`  // order within the thread, 1-based
	PID       int32     `json:"pid"`   // kernel pid at record time
	KernelTID int32     `json:"kernel_tid"`
	Syscall   string    `json:"syscall"`
	Nr        uint32    `json:"nr"`
	Args      []any     `json:"args"` // decoded: numbers, strings, flag strings, buffer objects
	RawArgs   [6]uint64 `json:"raw_args"`
	// Ret is the kernel's return value, -errno on failure; absent when the
	// call never returned.
	Ret      *int64 `json:"ret,omitempty"`
	Errno    string `json:"errno,omitempty"` // "ENOENT", absent on success
	NoReturn bool   `json:"no_return,omitempty"`
	// Unknown: the syscall table does not describe this call; its
	// arguments are raw and no memory was captured.
	Unknown bool `json:"unknown,omitempty"`
	// Path and Path2 are the call's resolved paths. JSON strings are
	// UTF-8, and a Linux path is any bytes: when a path is not valid UTF-8,
	// Path holds it with U+FFFD for the bad bytes, for reading, and
	// PathBase64 holds its exact bytes, for a program.
	Path        string   `json:"path,omitempty"`
	PathBase64  string   `json:"path_base64,omitempty"`
	Path2       string   `json:"path2,omitempty"`
	Path2Base64 string   `json:"path2_base64,omitempty"`
	Time        float64  `json:"time"`               // seconds from the start of the recording to the call's entry
	Duration    *float64 `json:"duration,omitempty"` // seconds from entry to exit, absent when it never returned
	// Gap counts the calls of this thread lost just before this one
	// (eBPF ring buffer full); Incomplete: some of its memory was lost.
	Gap        uint64 `json:"gap,omitempty"`
	Incomplete bool   `json:"incomplete,omitempty"`
	// Denied: the process's seccomp filter answered the call with its
	// errno; it never ran.
	Denied bool `json:"denied,omitempty"`
	// Obj is the ID of the file object the call opened or ran (show
	// --files lists them); absent for none.
	Obj uint32 `json:"obj,omitempty"`
}

// NewJSONCall returns the JSON object of c. Strings and buffers are cut
// after stringSize bytes (0: never).
func NewJSONCall(tab Rows, c *trace.Call, stringSize int) JSONCall {
	return jsonCall(newDecoder(tab), c, stringSize)
}

func jsonCall(d *decoder, c *trace.Call, lim int) JSONCall {
	row := d.row(c)
	args := d.args(c, row)
	j := JSONCall{
		Event: "call", Seq: c.Seq, Proc: c.Proc, TID: c.Thread, TSeq: c.TSeq, PID: c.PID, KernelTID: c.TID,
		Syscall: row.Name, Nr: c.Nr, Args: make([]any, len(args)), RawArgs: c.Args,
		NoReturn: c.NoReturn, Unknown: row.Unknown, Path: c.Path, Path2: c.Path2, Time: seconds(c.Enter),
		Gap: c.Gap, Incomplete: c.Incomplete(), Denied: c.Denied, Obj: c.Obj,
	}
	j.PathBase64, j.Path2Base64 = bytesIfNotUTF8(c.Path), bytesIfNotUTF8(c.Path2)
	for i, a := range args {
		j.Args[i] = a.json(lim)
	}
	if !c.NoReturn {
		r := c.Ret
		j.Ret = &r
		dur := seconds(c.Exit - c.Enter)
		j.Duration = &dur
		if e := c.Errno(); e != 0 {
			j.Errno, _ = errnoName(e)
		}
	}
	return j
}

func seconds(ns int64) float64 { return float64(ns) / 1e9 }

// jsonProc is a process event in JSON output.
type jsonProc struct {
	Event      string   `json:"event"`     // spawn, spawn_thread, exec, exit_thread, exit
	AfterSeq   uint64   `json:"after_seq"` // the last call recorded before the event
	Proc       uint32   `json:"proc"`
	TID        uint32   `json:"tid"`
	PID        int32    `json:"pid,omitempty"`
	KernelTID  int32    `json:"kernel_tid,omitempty"`
	Parent     uint32   `json:"parent,omitempty"`
	ParentTID  uint32   `json:"parent_tid,omitempty"`
	Index      uint32   `json:"index,omitempty"`
	CloneFlags uint64   `json:"clone_flags,omitempty"`
	Exe        string   `json:"exe,omitempty"`
	ExeBase64  string   `json:"exe_base64,omitempty"` // Exe's bytes when not UTF-8
	Argv       []string `json:"argv,omitempty"`
	Status     *int     `json:"status,omitempty"` // exit: as a shell reports it
	Signal     string   `json:"signal,omitempty"` // exit: the killing signal
	Time       float64  `json:"time"`
}

var procEventNames = map[trace.ProcKind]string{
	trace.Spawn: "spawn", trace.SpawnThread: "spawn_thread", trace.Exec: "exec",
	trace.ExitThread: "exit_thread", trace.Exit: "exit",
}

func newJSONProc(e *trace.ProcEvent) jsonProc {
	name, ok := procEventNames[e.Kind]
	if !ok {
		name = "unknown"
	}
	j := jsonProc{
		Event: name, AfterSeq: e.Seq, Proc: e.Proc, TID: e.Thread, PID: e.PID, KernelTID: e.TID,
		Parent: e.Parent, ParentTID: e.ParentThread, Index: e.Index, CloneFlags: e.CloneFlags,
		Exe: e.Exe, ExeBase64: bytesIfNotUTF8(e.Exe), Argv: e.Argv, Time: seconds(e.Time),
	}
	if e.Kind == trace.Exit {
		st := e.Status
		j.Status = &st
		if e.Signal != 0 {
			j.Signal = signalName(e.Signal)
		}
	}
	return j
}

type jsonHeader struct {
	Event string `json:"event"` // "header"
	*trace.Header
}

type jsonStart struct {
	Event string `json:"event"` // "start"
	trace.StartEvent
}

type jsonEnd struct {
	Event string `json:"event"` // "end"
	*trace.End
}

// Begin writes the header object and, unless Options.NoStart, one object
// per start event.
func (j *JSON) Begin(h *trace.Header, start []trace.StartEvent) error {
	j.d.setArch(h)
	if j.o.Filter.SelectsSyscalls() {
		return nil
	}
	if h != nil {
		if err := j.enc.Encode(jsonHeader{"header", h}); err != nil {
			return err
		}
	}
	if j.o.NoStart {
		return nil
	}
	for _, s := range start {
		if err := j.enc.Encode(jsonStart{"start", s}); err != nil {
			return err
		}
	}
	return nil
}

// Event writes a call or process event that passes the filter.
func (j *JSON) Event(ev trace.Event) error {
	switch {
	case ev.Call != nil:
		if j.o.Filter.Call(ev.Call) {
			return j.enc.Encode(jsonCall(j.d, ev.Call, j.o.StringSize))
		}
	case ev.Proc != nil:
		if j.o.Filter.Proc(ev.Proc) && !j.o.Filter.SelectsSyscalls() {
			return j.enc.Encode(newJSONProc(ev.Proc))
		}
	}
	return nil
}

// Finish writes the end object; a trace cut short has none.
func (j *JSON) Finish(end *trace.End) error {
	if end == nil || j.o.Filter.SelectsSyscalls() {
		return nil
	}
	return j.enc.Encode(jsonEnd{"end", end})
}

// bytesIfNotUTF8 returns s's bytes in base64 when s is not valid UTF-8
// (encoding/json would replace the bad bytes), "" otherwise: the exact
// value beside the readable one.
func bytesIfNotUTF8(s string) string {
	if utf8.ValidString(s) {
		return ""
	}
	return base64.StdEncoding.EncodeToString([]byte(s))
}
