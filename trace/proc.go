package trace

// ProcKind names a process life event.
type ProcKind uint8

const (
	// Spawn: a new process (fork, vfork, clone without CLONE_THREAD).
	Spawn ProcKind = 1
	// SpawnThread: a new thread in an existing process.
	SpawnThread ProcKind = 2
	// Exec: the process replaced its image (execve succeeded).
	Exec ProcKind = 3
	// ExitThread: a thread ended; the process lives on.
	ExitThread ProcKind = 4
	// Exit: the whole process ended, with Status.
	Exit ProcKind = 5
)

// ProcEvent is a change in the set of traced processes and threads.
//
// Logical identities: processes are numbered 1, 2, ... in the order the
// tracer first sees them, threads likewise across the whole trace; the
// first process and its main thread are 1. Because concurrent processes
// can be created in a different order in another run, each process also
// carries its lineage: its parent and its index among that parent's
// children (1-based), which does not depend on interleaving.
type ProcEvent struct {
	Kind   ProcKind `cbor:"1,keyasint"`
	Seq    uint64   `cbor:"2,keyasint"` // Seq of the last call recorded before this event
	Proc   uint32   `cbor:"3,keyasint"`
	Thread uint32   `cbor:"4,keyasint"`
	PID    int32    `cbor:"5,keyasint,omitempty"`
	TID    int32    `cbor:"6,keyasint,omitempty"`
	// Spawn and SpawnThread: who created it, and the creating call.
	Parent       uint32 `cbor:"7,keyasint,omitempty"`
	ParentThread uint32 `cbor:"8,keyasint,omitempty"`
	Index        uint32 `cbor:"9,keyasint,omitempty"`  // 1-based among the parent's children (Spawn) or the process's threads (SpawnThread)
	CloneFlags   uint64 `cbor:"10,keyasint,omitempty"` // flags of the creating call
	// Exec: the new image.
	Exe  string   `cbor:"11,keyasint,omitempty"`
	Argv []string `cbor:"12,keyasint,omitempty"`
	// Exit: status as a shell reports it (code, or 128+signal) and the signal.
	Status int   `cbor:"13,keyasint,omitempty"`
	Signal int   `cbor:"14,keyasint,omitempty"`
	Time   int64 `cbor:"15,keyasint"` // ns since Header.Started
}

// Event is one entry of the trace's event stream: exactly one field is set.
type Event struct {
	Call *Call      `cbor:"1,keyasint,omitempty"`
	Proc *ProcEvent `cbor:"2,keyasint,omitempty"`
}
