package depgraph

import (
	"fmt"
	"strconv"
	"strings"
)

// Class says whose a resource is, which decides whether replay may skip
// the calls on it (BRIEF, "Input is not environment").
type Class uint8

const (
	// Environment: what the program reaches out to — files, connections
	// to peers outside the traced tree, the kernel's answers. The search
	// is about these; their calls may be replayed.
	Environment Class = iota + 1
	// Input: what the command is given and is the same in both
	// environments — the standard streams and other fds it inherits,
	// connections a traced server accepts from untraced clients. Executed
	// by default.
	Input
	// Internal: communication among the traced processes and their own
	// state — pipes, socketpairs, a connection from one traced process to
	// another's listening socket, FIFOs made in the trace, eventfds,
	// processes, memory. Always executed.
	Internal
)

var classNames = [...]string{Environment: "environment", Input: "input", Internal: "internal"}

func (c Class) String() string {
	if int(c) < len(classNames) && classNames[c] != "" {
		return classNames[c]
	}
	return "unknown"
}

// MarshalText makes a Class print by name in JSON.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a Class's name.
func (c *Class) UnmarshalText(b []byte) error {
	return unmarshalName(b, classNames[:], (*uint8)(c), "class")
}

// unmarshalName sets *v to the index of name b in names.
func unmarshalName(b []byte, names []string, v *uint8, what string) error {
	for i, n := range names {
		if n != "" && n == string(b) {
			*v = uint8(i)
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q", what, b)
}

// stronger returns the class that wins when a call touches resources of
// both: internal over input over environment.
func stronger(a, b Class) Class { return max(a, b) }

// ResourceID names a resource of one Graph: 1, 2, ... in order of
// creation; 0 is no resource.
type ResourceID int32

// ResourceKind says what a resource is.
type ResourceKind uint8

const (
	// File is an open file description of a path (a regular file, a
	// directory, a device): created by open, shared by dup and fork.
	File ResourceKind = iota + 1
	// Path is a name in the file system, defined by the calls that
	// create, remove, rename or modify it.
	Path
	// Cwd is a working directory, shared by processes made with CLONE_FS.
	Cwd
	// Process is a traced process, defined by its spawn and its execs.
	Process
	// Thread is a thread other than a process's first, defined by the
	// clone that made it.
	Thread
	// Attrs are a process's credentials, limits, umask, root and
	// namespaces, and attributes such as its session.
	Attrs
	// Pipe is a pipe: both of its ends.
	Pipe
	// SocketPair is a socketpair: both of its ends.
	SocketPair
	// Socket is a socket made by socket or accept, with the addresses
	// it was bound, connected or accepted on.
	Socket
	// Epoll is an epoll instance and the set of fds it watches.
	Epoll
	// AnonFD is another fd-backed kernel object: eventfd, timerfd,
	// signalfd, inotify, memfd, pidfd, io_uring, ...
	AnonFD
	// Inherited is an fd the process had before the trace shows it being
	// made: stdin, stdout and stderr of the command, for instance.
	Inherited
	// Mapping is a memory mapping of a file (mmap with an fd).
	Mapping
)

var kindNames = [...]string{
	File: "file", Path: "path", Cwd: "cwd", Process: "process", Thread: "thread", Attrs: "attrs",
	Pipe: "pipe", SocketPair: "socketpair", Socket: "socket", Epoll: "epoll", AnonFD: "anon",
	Inherited: "inherited", Mapping: "mapping",
}

func (k ResourceKind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "unknown"
}

// MarshalText makes a ResourceKind print by name in JSON.
func (k ResourceKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a ResourceKind's name.
func (k *ResourceKind) UnmarshalText(b []byte) error {
	return unmarshalName(b, kindNames[:], (*uint8)(k), "resource kind")
}

// Resource is one thing the tracker models. A trace of a million calls
// that opens a file a third of a million times holds as many File
// resources: a resource is 48 bytes, a file's name is made when asked
// for (Name), and the names of other kinds and what only sockets,
// mappings and other fd objects have are held apart (resourceMore).
type Resource struct {
	ID   ResourceID
	Kind ResourceKind
	// Class is known once the whole trace has been read (a connection is
	// internal when another traced process listens on its address).
	Class Class
	// FD is the number of an Inherited resource's fd (0 for stdin); see
	// InheritedName. It is 0 for other kinds.
	FD int32
	// Group is the group the resource's calls are in, 0 for resources
	// whose calls are grouped by another one (Cwd, Attrs, Thread).
	Group GroupID
	// Created is the call that made the resource; 0 when it predates the
	// trace or no call made it (a path, an inherited fd).
	Created uint64
	// Path is the file system path of File, Path and Mapping resources,
	// and of Inherited ones as the recorder saw it ("/dev/pts/0").
	Path string

	more *resourceMore // nil for files and paths
}

// resourceMore is what only some kinds of resources have.
type resourceMore struct {
	name        string // Name, for kinds other than File and Path
	local, peer string // a socket's addresses
	address     uint64 // where a mapping starts
	object      string // the kind of object an AnonFD is
	echo        string // the echo protocol a socket speaks
}

// Name is the resource's stable, printable identity: the same trace
// always gives the same names, e.g. `/etc/hosts (#5)` (the open at call
// 5), `/etc/hosts` (a path), `pipe:[4711] (#55)`,
// `tcp socket 127.0.0.1:40000 -> 127.0.0.1:5432 (#12)`, `process 2`. A
// File's is made here, from its path and the open, each time.
func (r *Resource) Name() string {
	switch {
	case r.more != nil && r.more.name != "":
		return r.more.name
	case r.Kind == File:
		return r.Path + " (#" + strconv.FormatUint(r.Created, 10) + ")"
	case r.Kind == Path:
		return r.Path
	}
	return ""
}

// Local is a socket's local address as far as the trace shows it
// ("127.0.0.1:5432", "unix:/run/mpd.sock"); "" if unknown.
func (r *Resource) Local() string { return r.extra().local }

// Peer is a socket's peer address, as Local.
func (r *Resource) Peer() string { return r.extra().peer }

// Address is where a Mapping starts; 0 for other kinds.
func (r *Resource) Address() uint64 { return r.extra().address }

// Object is the kind of object an AnonFD is ("eventfd", "memfd"), as
// the syscall table's Makes names it, or the name of the call that made
// it when the table does not say; "" for other kinds.
func (r *Resource) Object() string { return r.extra().object }

// Echo names the echo protocol a socket speaks (systable's
// EchoProtocol: "netlink", "dns-udp", "dns-tcp"), "" for none.
func (r *Resource) Echo() string { return r.extra().echo }

// extra is r's resourceMore, empty for a resource without one.
func (r *Resource) extra() resourceMore {
	if r.more == nil {
		return resourceMore{}
	}
	return *r.more
}

// setMore returns r's resourceMore to set, made on first use.
func (r *Resource) setMore() *resourceMore {
	if r.more == nil {
		r.more = &resourceMore{}
	}
	return r.more
}

// Why is a bit set of the reasons one call depends on another.
type Why uint16

const (
	// ByFD: the call passes an fd that the other call created, duplicated
	// onto that number, or inherited into the process.
	ByFD Why = 1 << iota
	// ByState: the other call changed the state of the open file
	// description behind the fd: its flags (F_SETFL, FIONBIO), a socket's
	// bind, listen, connect, options or shutdown, an epoll set.
	ByState
	// ByPosition: the other call moved the file offset or consumed the
	// stream the call reads or writes next (read, write, lseek, recv,
	// accept ...).
	ByPosition
	// ByContent: the other call created, removed, renamed or modified the
	// path the call names or reads through its fd, or a parent directory
	// of it.
	ByContent
	// ByCwd: the call names a relative path and the other call set the
	// working directory it resolves against.
	ByCwd
	// ByProcess: the other call created the calling thread or process, or
	// exec'd the image it runs.
	ByProcess
	// ByAttrs: the other call changed credentials, limits, umask, root or
	// namespaces that the call is subject to.
	ByAttrs
	// ByMapping: the call acts on memory that the other call mapped.
	ByMapping
)

var whyNames = []struct {
	w    Why
	name string
}{
	{ByFD, "fd"}, {ByState, "state"}, {ByPosition, "position"}, {ByContent, "content"},
	{ByCwd, "cwd"}, {ByProcess, "process"}, {ByAttrs, "attrs"}, {ByMapping, "mapping"},
}

// Names returns the reasons' names in a fixed order.
func (w Why) Names() []string {
	var out []string
	for _, n := range whyNames {
		if w&n.w != 0 {
			out = append(out, n.name)
		}
	}
	return out
}

func (w Why) String() string { return strings.Join(w.Names(), ",") }

// Edge says that call From depends on call To: To last defined something
// From uses. To is usually the earlier call; a child's calls can precede
// the parent's vfork or clone that made the child.
type Edge struct {
	From, To uint64
	// Resource is what the dependency goes through (the first one found
	// when there are several).
	Resource ResourceID
	Why      Why
	// ContentOnly: From uses what To made only through fd arguments of
	// which it needs the file's content (systable's Arg.ContentOnly: a
	// read, an mmap, an fstat), so an fd on a stand-in holding the
	// recorded file serves it as well as To running for real would
	// (Closure, served files).
	ContentOnly bool
}

// GroupID names a group of one Graph: 1, 2, ... in order of the groups'
// first calls.
type GroupID int32

// GroupKind says what a group is about.
type GroupKind string

const (
	GroupFile       GroupKind = "file"       // a path, every open file description of it, its mappings
	GroupDirectory  GroupKind = "directory"  // a path used as a directory
	GroupPipe       GroupKind = "pipe"       // one pipe
	GroupSocketPair GroupKind = "socketpair" // one socketpair
	GroupConnection GroupKind = "connection" // the sockets connected (or sending) to one address
	GroupListener   GroupKind = "listener"   // the sockets bound to one address that take connections
	GroupAccepted   GroupKind = "accepted"   // the connections accepted on one address
	GroupSocket     GroupKind = "socket"     // sockets of a family never bound or connected (netlink ...)
	GroupDNS        GroupKind = "dns"        // the sockets to DNS servers that asked the same questions: their queries and answers
	GroupEpoll      GroupKind = "epoll"      // one epoll instance
	GroupFD         GroupKind = "fd"         // one other fd-backed object (eventfd, memfd, ...)
	GroupStdio      GroupKind = "stdio"      // an inherited fd: stdin, stdout, stderr, ...
	GroupProcess    GroupKind = "process"    // a process's life: clone, exec, exit, wait, signals, thread setup
	GroupMemory     GroupKind = "memory"     // a process's anonymous memory
	GroupKernel     GroupKind = "kernel"     // the kernel's answers to one syscall (uname, getrandom ...)
)

// Group is a set of linked calls about one thing, so that reports and the
// search can speak of "the file /etc/vsftpd.conf" as well as of one call.
// Every call of a Graph is in exactly one group.
type Group struct {
	ID   GroupID
	Kind GroupKind
	// Name says what the group is about: a path, an address, a pipe's
	// name, "process 2 (/usr/bin/cat)", a syscall name.
	Name  string
	Class Class
	Calls []uint64 // increasing
	// Resources are the resources whose calls make up the group.
	Resources []ResourceID
	// Questions is, for a GroupDNS group, how many questions its name
	// lists.
	Questions int
}

// Title is the group as a report names it: "file /etc/hosts",
// "connection to tcp 127.0.0.1:5432", "the kernel's answers to uname",
// "the answer for artifacts.internal A".
func (g *Group) Title() string {
	switch g.Kind {
	case GroupPipe, GroupSocketPair, GroupEpoll, GroupFD, GroupStdio:
		return g.Name // "pipe:[4711] (#55)", "eventfd (#9)", "stdin (/dev/pts/0)"
	case GroupConnection:
		return "connection to " + g.Name
	case GroupListener:
		return "listener on " + g.Name
	case GroupAccepted:
		return "connections accepted on " + g.Name
	case GroupSocket:
		return g.Name + " socket"
	case GroupMemory:
		return "memory of process " + g.Name
	case GroupKernel:
		return "the kernel's answers to " + g.Name
	case GroupDNS:
		if g.Questions > 1 {
			return "the answers for " + g.Name
		}
		return "the answer for " + g.Name
	}
	return string(g.Kind) + " " + g.Name
}
