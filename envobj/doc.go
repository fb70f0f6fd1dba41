// Package envobj is the object model of a materialized run: the objects
// of the environment a command met (a file's content and metadata, a
// directory and its entries, a symbolic link, a path that is missing on
// one side, a kernel tunable's value: tunable.go), each with its state
// in the good run (from the trace) and here (from inspecting this
// environment, package envdiff), what differs between the two, and the
// operations that put the good state in place in a run's throwaway
// sandbox (Op), which package sandbox applies before the command starts.
//
// It is plain data: no file system, no kernel. envdiff fills it, the
// search (package bisect, LocateObjects) groups it (Build) and searches
// it, a run spec carries its operations, and the report names its
// objects and their fixes (Fix). One notion of "what differs" for every
// stage: the call-level resources of package depgraph remain the unit of
// call-level replay, the fallback.
//
// # Groups (hierarchy.go)
//
// Build turns the objects into the hierarchy the object search runs over
// (Misherghi and Su's hierarchical delta debugging): one Group per package
// that owned objects in the good run (Object.Package), then the objects no
// package owned as the tree of their directories, collapsed where a
// directory holds one node, whose first level (the nodes under the
// objects' nearest common directory) are candidates of their own, and
// last one group of the objects whose modification time alone differs
// (rarely a cause). An object a run cannot put in place (Materializable),
// or for which it would do nothing, is not in the hierarchy: it is listed
// (Unplaced), for the report and the call-level fallback.
//
// # Words and fixes (words.go, fix.go, start.go)
//
// Object.Says and Group.Says say what differs with both states ("/tmp is
// drwxr-xr-x here, drwxrwxrwt in the good run", "python3-yaml 6.0-3 is not
// installed here (41 files)"); Object.Fix, Group.Fix, PackageFix and
// StartValue.Fix what a user runs here to get the state a run puts in
// place ("chmod 1777 /tmp", "apt-get install python3-yaml=6.0-3", "export
// TZ=UTC", "sysctl -w net.core.somaxconn=4096"; a file's good content
// is "restore PATH from the good environment", to which the caller may
// add the diff). Every fix step
// corresponds to an Op of the same object, so that the run that confirmed
// a cause validates its fix.
//
// # Addresses (address.go)
//
// An address the good run bound and a process holds here (Address) is
// not a path: like the host name, it is a start item of the search
// (StartValue of KindAddress, one item for all of them, as a run frees
// them all at once: it gives the command a network namespace of its own),
// named by its address and protocol and by its holder here ("address
// 127.0.0.1:8080/tcp: held here by pid 4242 (/usr/bin/busybox)"), and
// its fix stops the holder ("kill 4242"; AddressNote says what the
// validating run did instead).
//
// # The kernel's names (kernel.go)
//
// The kernel release and version the good run's uname got, when they
// differ here, are a start item too (StartValue of KindKernel, one per
// name): no namespace gives them, so a run puts the good value in place
// by rewriting uname's answer, traced at uname only (package replay's
// Spec.Uname). Says tells whether the good release is this kernel's
// under personality UNAME26 (Uname26Release), and Fix then says to start
// the command under setarch --uname-2.6; otherwise, to run it on a
// kernel of that release (KernelNote says what the validating run did).
//
// # Peers (peer.go)
//
// A server the good run talked to over IP (Peer: a TCP service, a DNS
// resolver) is a start item too (KindPeer, one per peer), with the
// recorded conversation a stand-in replays (package standin). It is
// named by what it answered, never by its bytes ("127.0.0.1:53/udp
// answers NXDOMAIN for artifacts.internal A here; the good run got A
// 10.1.2.3"); Shown is the report's copy, without the conversation; its
// fix makes the peer answer as in the good run (PeerNote says the
// validating run used a stand-in).
//
// # The search's result (result.go)
//
// Result, ResultCause, ResultStep and Fix are the object search's
// report: bisect fills them, render presents them (locate's report holds
// one as "objects"). They live here rather than in bisect because bisect
// imports render, which could then not read them.
//
// # Why a package of its own
//
// The architecture note suggested extending depgraph's resources with
// the good state. depgraph's resources are call-level (an open file
// description, a socket, a path as a chain of calls) and exist only for
// what calls touched; an object is a path-level state (content, mode,
// owner, entries) with a parent directory and a package, that also
// exists for what inspection finds here and no call touched (an extra
// entry in a drop-in directory, a module that shadows another). Both
// refer to paths, and an object names the first recorded call that met it
// (FirstSeq), so a report goes from the object to the call.
package envobj
