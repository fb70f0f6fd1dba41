// Package systable is envbisect's syscall table: one row of data per
// system call, read by every stage.
//
// A row names the call, its number on one architecture, each argument's
// kind (fd, dirfd, path, flags with their names, an in-buffer, an
// out-buffer sized by the return value or by another argument, a struct of
// fixed size, an iovec array, a msghdr, ...), the kind of its return value,
// its effect on the resources envbisect tracks (creates an fd, closes one,
// names or creates a path, changes the cwd, creates a process, maps
// memory, ...) and how replay treats it (replayable, or always executed).
//
// The recorder reads the buffer kinds to know which user memory to copy
// at entry and at exit; show reads the same rows to print a call as strace
// does; depgraph reads the effects to draw dependency edges; replay reads
// the buffer kinds again to write recorded results back. Rows marked
// NoStop are let through by the seccomp filter without stopping the
// tracee: their Why field says why they carry no environment content.
//
// Beyond kinds and effects, a row carries the facts other stages would
// otherwise decide by a call's name (columns.go): volatile return values
// and outputs, routine calls, how a wait names its child, what an
// argument's memory holds (a path, a wait status, the environment, file
// data), the fd a two-fd call writes, the object a call makes (socket,
// epoll, pipe, socketpair), what it does to a socket, what it reveals
// that envbisect cannot see or allow (Unseen: io_uring, ptrace), whether its answer
// is the CPUs the process may run on, which envbisect's pinning decides
// (Placement: sched_getaffinity), whether an EAGAIN on a non-blocking fd
// means "not yet" and is tried again (TriesAgain: read, recv, accept),
// unmapping, and
// whether an exec can be replayed by running the image the trace stores
// (ServesImage, with ImageArgs naming its argv and envp), and which
// creations make a name a generator may have made (Generated: an open
// with O_CREAT|O_EXCL, a mkdir may hold mkstemp's random run or a pid;
// generated.go says with NameGen.Matches whether two names differ only
// there), so that align matches a temporary file's calls across runs.
// Multiplexing calls (fcntl, ioctl, prctl) have request rows
// (requests.go): each request's size, direction, flag set and effect
// (sets close-on-exec, changes the open file description, names the
// thread). Rules on enum and flag values live here too (enums.go), so
// no stage compares a flag's name.
//
// Arrays of struct mmsghdr (sendmmsg, recvmmsg) are kinds of their own
// (InMmsghdr, OutMmsghdr): vlen entries from an argument, each a msghdr
// and the msg_len the kernel writes back; their return value counts
// messages. The engines walk msghdr, iovec and mmsghdr in a tracee's
// memory by Table.Msg (msglayout.go), whose sizes and offsets are
// generated from the C compiler (xlat/socket_msg_layout.in).
//
// Struct layouts are data (structs.go): one table of C types with their
// size and fields (offset, size, kind, volatility; Judged for a volatile
// field programs still decide by, a file's mtime; Epoch for seconds since
// the epoch), struct stat per architecture, from which show, diff, the
// locate report and the dependency tracker all decode; socket addresses (sockaddr.go) and directory records
// (dirents.go) are decoded once here. CloneSharing says what a clone's
// flags share. FDTable applies the kernel's rules for how calls change
// an fd table (copies, close_range, exec, CLONE_FILES) for every tracker
// that keeps one, and FDChangeOf reads from a row which fds a completed
// call made, copied, closed or flagged close-on-exec; both recorders
// apply that with FDTable.Apply and say only what a new fd refers to.
//
// Echo protocols (echo.go, echo_protocols.go) are rows too: a protocol
// whose replies echo an id the program made up (netlink's nlmsg_seq and
// nlmsg_pid, the DNS query id over UDP and TCP), how its sockets are
// recognised (family, type, protocol, the port they send to), how its
// bytes are cut into messages (a datagram, a length field walked from
// message to message, a length prefix in a stream) and where each echoed
// field lies in a message. EchoProtocol.Spans finds the fields in a
// buffer; align compares without them and replay writes the live values
// into a replayed reply. These rows are hand-written, not generated:
// they are wire formats (RFC 1035, struct nlmsghdr), the same on every
// architecture, with no per-architecture header value to transcribe; a
// test checks the netlink offsets against x/sys's NlMsghdr. A protocol
// is added by adding a row. A row's Messages column says what its
// messages are for the readers that decode them (echo_messages.go):
// MessagesDNS makes each exchange a resource of its own that locate's
// report decodes (depgraph's GroupDNS, package dnsmsg).
//
// Numbers are per architecture: the rows live in table_<arch>.go. Calls
// the table does not describe are still recorded with raw arguments; ByNr
// returns an Unknown row for them.
//
// # One table per architecture, chosen by the trace
//
// A trace's header names the architecture it was recorded on, and a
// reader builds its table with New(header.Arch): a trace recorded on
// x86-64 is shown, diffed and analysed the same on any host. So the
// per-architecture files carry no build constraint (table_x86_64.go,
// ioctls_x86_64.go, not _amd64.go, as gVisor keeps its tables) and take
// no value from golang.org/x/sys/unix, whose constants follow the
// architecture the binary is built for. Only recording and replay, which
// trace live processes, use Native. New returns an error wrapping
// ErrNoTable for an architecture without a table (only amd64 has one).
//
// # Generated values: xlat lists
//
// The x86-64 values are generated, as strace's src/xlat is. Each file
// xlat/<set>.in lists the names of one flag set; `go generate ./systable`
// runs internal/xlatgen, which compiles one small C program per list with
// an x86-64 gcc against the Linux UAPI and glibc headers (linux-libc-dev,
// libc6-dev), runs it, and writes, all committed:
//
//   - flagsets_x86_64.go: the FlagSet variables (OpenFlags, ...), values
//     as literals, each with its list and headers as provenance;
//   - syscalls_x86_64.go: every x86-64 call's number from
//     <asm/unistd_64.h> (xlat/syscalls.in); a test checks each row's
//     number against it;
//   - internal/amd64/consts.go: every listed value as a Go constant
//     (amd64.O_CREAT, amd64.TCGETS, amd64.SYS_READ), for the table code;
//   - xlat_xsys_amd64_test.go: an amd64-only test that every generated
//     value x/sys/unix also defines equals it (a second source).
//
// CI regenerates and fails on any difference. A .in file has one entry or
// directive a line; /* ... */ comments end on their line:
//
//	#Doc text        a line of the Go variable's doc comment
//	#Var Name        the Go variable (a flag set; its Name is the file name)
//	#From header.h   a header to #include (several allowed, in order)
//	#Mask EXPR       the set's Mask, a C expression (O_ACCMODE, 0xff)
//	#Enum            the entries that follow are Enum values
//	#Bits            the entries that follow are Bits, in print order
//	                 (composite values before their parts)
//	#Combos ZERO     the Enum is every combination of the entries that
//	                 follow, zero named ZERO (F_OK, PROT_NONE)
//	#EnumSignals     the Enum is the signal names (clone's CSIGNAL)
//	#Include set     the Bits of xlat/<set>.in, here
//	#Consts          constants only, no flag set (ioctl requests, signals)
//	#Syscalls        syscall names: values of __NR_<name>, constants SYS_<NAME>
//	#NoXsysCheck N   N's value differs from x/sys's on purpose (say why)
//	NAME             the value the headers give NAME
//	NAME EXPR        EXPR when the headers lack NAME (newer than the
//	                 installed headers, or a kernel name libc hides); when
//	                 they define it, generation fails unless it equals EXPR
//	0 0              a display name that is no C name (mknod's file type
//	                 0) takes its value as given
//
// A negative value (RUSAGE_CHILDREN) is stored as the 32-bit two's
// complement, as the flag sets hold C int arguments. Where the kernel has
// a name for zero (O_RDONLY, PROT_NONE, F_OK), the set lists the field as
// an Enum under a Mask so that 0 prints by name; for small bit sets with
// such a name, #Combos lists every combination.
//
// To add a flag set: write xlat/<set>.in with #Var, #From and the names,
// run `go generate ./systable`, and point the rows' flg(...) arguments at
// the new variable. To add a name to a set or a constant the table code
// needs as amd64.NAME: add the line, regenerate, commit the .in and the
// generated files together. Generating needs an x86-64 C compiler (set
// CC=x86_64-linux-gnu-gcc on another host).
package systable
