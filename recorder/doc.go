// Package recorder is envbisect's resident eBPF recorder (`envbisect
// recorder`): the programs of package bpf loaded and verified once, and
// recordings made through them on request, so that a recording's start
// costs a connection instead of a load (0.2-0.3 s).
//
// # One probe, many sessions
//
// The Server loads one probe with FilterTree and reads its one ring in
// one goroutine (the loop). A session is one recording: the processes it
// asked the probe to follow (bpf.Probe.Track), and, in the kernel, every
// process and thread they create. The probe sends one stream for all of
// them; the loop splits it by the records' own ids, in stream order: a
// Call names its thread and process, a Fork gives its child (thread or
// process) the parent's session, an Exec moves a thread to the leader's
// id, an Exit forgets a thread (and, with GroupDead, its process), and a
// Chunk belongs to its thread's session. When a session follows a
// process, the loop learns its threads from /proc/PID/task before the
// probe tracks it, so no record of it comes first. A record of no session
// is dropped.
//
// The loop passes each record on unchanged, as the program wrote it
// (bpf.Probe.ReadRaw): the client decodes it (bpf.Decode) and assembles
// its trace with package ebpfrec exactly as with a probe of its own
// (ebpfrec.Source), writing the trace itself and reading file contents
// with its own rights. So the recorder neither writes traces for others
// nor reads files for them.
//
// # Protocol
//
// A unix stream socket; frames are a little-endian u32 length, a kind
// byte and a payload (proto.go). The client sends Follow (JSON: its
// capture limit) with a pidfd of the process to follow as SCM_RIGHTS;
// the recorder reads the pid from /proc/self/fdinfo (so a client in
// another pid namespace names the right process, and only one it holds),
// follows it and answers Ack. The process was started stopped (the
// launcher's helper waits on its pipe) and is released after the Ack, so
// no call is missed. Records follow as Record frames. At the end the
// client sends Drain; the recorder answers End (the session's losses) once
// it has read everything the ring held when the Drain came (bpf.Probe
// .Pending, so a busy ring shared with other sessions cannot hold it up),
// at once when the ring is empty. Hanging up ends the session: its
// processes are no longer followed.
//
// The loop runs a request as soon as it comes: the request wakes the
// loop's wait on the ring (bpf.Probe.Wake, an eventfd beside the ring in
// the reader's epoll), so neither a Follow nor a Drain waits for the
// poll interval (bpf.DefaultPoll) in which the loop looks for records
// the program did not wake it for.
//
// # Who may record what
//
// The socket is root's, 0600, or 0660 for a group (--group). The loop
// checks each client's credentials (SO_PEERCRED, peer.go): root may
// follow any process; any other client only its own child with its own
// user and group ids (real, effective, saved, filesystem) and no permitted
// capability it lacks, what ptrace would allow it. A process of such a
// client's tree whose exec changed its privileges (a set-user-ID,
// set-group-ID or file-capability program: the probe marks the Exec
// record, bpf.Exec.Secure, from the kernel's bprm->secureexec) is no
// longer followed nor passed on from that exec: ptrace would have run it
// without its privileges or refused. The mark is the kernel's, taken at
// the exec, so a program that is gone by the time the loop reads its
// records is judged all the same.
// Its threads that had recorded calls stay in the probe's thread table
// until they exit; their records are dropped.
//
// # Losses
//
// The ring is shared: a session's End counts what the ring lost while it
// was open, whoever lost it (a loss shows in the trace; a gap in a
// thread's call numbers says whose). A client that does not read its
// records fast enough does not hold up the ring: past 64 MiB queued for
// it, its records are dropped and counted as losses of its own.
//
// # Stopping
//
// Close stops accepting, removes the socket, reads what the ring still
// holds, ends every session, and detaches and unloads the programs
// (bpf.Probe.Close): nothing of the recorder stays in the kernel.
//
// Local is a session inside the recorder's own process: `recorder
// --docker` records each container through one, with record.Observe.
package recorder
