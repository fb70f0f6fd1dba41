package trace

import "time"

// Backend names the mechanism that produced a trace.
const (
	// BackendPtraceSeccomp stops the tracee only on the calls a seccomp
	// filter sends to the tracer; the calls in Header.Filtered never stop.
	BackendPtraceSeccomp = "ptrace+seccomp"
	// BackendPtrace stops on every system call (PTRACE_SYSCALL); used where
	// seccomp filters are unavailable.
	BackendPtrace = "ptrace"
	// BackendEBPF records from raw tracepoints at every system call's
	// entry and exit without stopping the tracee; the data travels
	// through a ring buffer, and what did not fit is counted in
	// End.Lost.
	BackendEBPF = "ebpf"
)

// Header describes how and where a trace was recorded. It is the first
// frame of every trace file.
type Header struct {
	Tool     string    `cbor:"1,keyasint" json:"tool"`      // envbisect version that wrote the trace
	Arch     string    `cbor:"2,keyasint" json:"arch"`      // GOARCH of the traced programs, "amd64"
	Kernel   string    `cbor:"3,keyasint" json:"kernel"`    // uname release
	Host     string    `cbor:"4,keyasint" json:"host"`      // hostname
	Command  []string  `cbor:"5,keyasint" json:"command"`   // argv as given to record
	Cwd      string    `cbor:"6,keyasint" json:"cwd"`       // working directory the command started in
	Started  time.Time `cbor:"7,keyasint" json:"started"`   // wall clock at start
	Backend  string    `cbor:"8,keyasint" json:"backend"`   // BackendPtraceSeccomp or BackendPtrace
	ASLR     bool      `cbor:"9,keyasint" json:"aslr"`      // true when address randomisation was left on
	Filtered []string  `cbor:"10,keyasint" json:"filtered"` // syscalls that never stopped the tracee and are absent from the trace
	Exclude  []string  `cbor:"11,keyasint" json:"exclude"`  // --exclude-content globs
	// MaxCapture is the largest number of bytes stored for one buffer;
	// longer buffers are stored up to it and marked truncated. 0: no limit.
	MaxCapture uint64 `cbor:"12,keyasint" json:"max_capture"`
	// NoVDSO is set when the vDSO was hidden from the command (its auxv
	// entry AT_SYSINFO_EHDR turned into AT_IGNORE at every exec), so that
	// time queries went to the kernel and are in the trace.
	NoVDSO bool `cbor:"13,keyasint,omitempty" json:"no_vdso,omitempty"`
	// RingSize is the eBPF recorder's ring buffer size in bytes.
	RingSize uint64 `cbor:"14,keyasint,omitempty" json:"ring_size,omitempty"`
	// Observed marks an observation trace: envbisect attached to
	// processes it did not start (record --attach). It has no command to
	// re-run, so locate cannot use it; show, diff and deps can.
	Observed bool `cbor:"15,keyasint,omitempty" json:"observed,omitempty"`
	// Container names the container or process whose namespaces and
	// root the command ran in (record --container or --pid):
	// "container web (3f2a9c1b7d4e)", "pid 1234". Empty: the host's.
	Container string `cbor:"20,keyasint,omitempty" json:"container,omitempty"`
	// Salt is the per-trace random salt of the hashes of redacted values
	// (StartEvent.Redacted, SecretHash); nil in traces without any.
	Salt []byte `cbor:"30,keyasint,omitempty" json:"salt,omitempty"`
	// ExcludeEnv are --exclude-env's patterns (globs on a variable's
	// name) and KeepEnv --keep-env's names: with the default secret
	// names they decide which values are redacted.
	ExcludeEnv []string `cbor:"31,keyasint,omitempty" json:"exclude_env,omitempty"`
	KeepEnv    []string `cbor:"32,keyasint,omitempty" json:"keep_env,omitempty"`
	// Signals is set when the start events hold the signals the command
	// started with ignored or blocked (StartSignal): a trace without it
	// was written before envbisect recorded them, and says nothing of
	// them, not that none was ignored.
	Signals bool `cbor:"33,keyasint,omitempty" json:"signals,omitempty"`
}

// End is the last frame of a complete trace. A trace without it was cut
// short: the recorder died or the disk filled.
type End struct {
	Finished time.Time `cbor:"1,keyasint" json:"finished"`
	// ExitCode is the command's exit status as a shell reports it:
	// the status, or 128+N when killed by signal N.
	ExitCode int    `cbor:"2,keyasint" json:"exit_code"`
	Signal   int    `cbor:"3,keyasint" json:"signal,omitempty"` // the killing signal, 0 if it exited
	Calls    uint64 `cbor:"4,keyasint" json:"calls"`            // calls recorded
	Procs    uint32 `cbor:"5,keyasint" json:"procs"`            // processes seen
	Threads  uint32 `cbor:"6,keyasint" json:"threads"`          // threads seen
	Stops    uint64 `cbor:"7,keyasint" json:"stops"`            // ptrace stops taken
	// Interrupted is set when the recording was stopped by a signal to
	// envbisect (Ctrl-C); the trace is complete up to that point.
	Interrupted bool `cbor:"8,keyasint" json:"interrupted,omitempty"`
	// Verdict is how the recorded run was judged ("pass", "fail",
	// "skip"): by its exit status, or by the check, alive and timeout
	// flags record was given. Empty in traces written before it existed.
	Verdict string `cbor:"9,keyasint,omitempty" json:"verdict,omitempty"`
	// Lost is what the eBPF recorder captured but could not deliver;
	// nil for the ptrace backends, which lose nothing.
	Lost *Losses `cbor:"10,keyasint,omitempty" json:"lost,omitempty"`
	// Redacted names the environment variables whose values the
	// recorder kept out of the trace (sorted).
	Redacted []string `cbor:"30,keyasint,omitempty" json:"redacted,omitempty"`
	// RedactedBuffers counts captured buffers dropped because they
	// carried a redacted value (Mem.Note "redacted: ..."), and
	// ExcludedBuffers those dropped because they carried content of an
	// excluded file outside that file's own calls ("excluded: ...").
	RedactedBuffers uint64 `cbor:"31,keyasint,omitempty" json:"redacted_buffers,omitempty"`
	ExcludedBuffers uint64 `cbor:"32,keyasint,omitempty" json:"excluded_buffers,omitempty"`
}

// Losses counts what an eBPF recording lost in its ring buffer, and what
// it cut on purpose.
type Losses struct {
	Calls  uint64 `cbor:"1,keyasint" json:"calls"`  // calls missing from the trace (Call.Gap sums them per thread)
	Chunks uint64 `cbor:"2,keyasint" json:"chunks"` // pieces of buffers lost: their calls are Incomplete
	Procs  uint64 `cbor:"3,keyasint" json:"procs"`  // process events (fork, exec, exit) lost
	// Incomplete counts the calls in the trace whose memory is partly
	// lost (Mem flagged Lost).
	Incomplete uint64 `cbor:"4,keyasint" json:"incomplete"`
	// Truncated counts buffers stored only up to the capture limit
	// (Header.MaxCapture): cut on purpose, not lost.
	Truncated uint64 `cbor:"5,keyasint" json:"truncated"`
}

// Any reports whether anything was lost (truncation is not a loss).
func (l *Losses) Any() bool {
	return l != nil && (l.Calls > 0 || l.Chunks > 0 || l.Procs > 0 || l.Incomplete > 0)
}
