// Package envobj is the object model of a materialized run: the objects
// of the environment a command met (a file's content and metadata, a
// directory and its entries, a symbolic link, a path that is missing on
// one side), each with its state in the good run (from the trace) and
// here (from inspecting this environment, package envdiff), what differs
// between the two, and the operations that put the good state in place in
// a run's throwaway sandbox (Op), which package sandbox applies before the
// command starts.
//
// It is plain data: no file system, no kernel. envdiff fills it, the
// search (package bisect) groups and searches it (Hierarchy), a run spec
// carries its operations, and the report names its objects and their
// fixes (Fix). One notion of "what differs" for every stage: the
// call-level resources of package depgraph remain the unit of call-level
// replay, the fallback.
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
