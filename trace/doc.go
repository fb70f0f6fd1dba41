// Package trace holds the identities every stage of envbisect shares: the
// trace header, the start events, one recorded system call with the user
// memory it read or wrote, and the life events of the traced processes.
//
// The types here carry no behaviour that touches a kernel: the recorder
// fills them, the tracefile package encodes them, and show, depgraph and
// bisect read them. Logical identities (Proc, Thread) are assigned by
// creation order so that the same command recorded twice names its
// processes and threads the same way; kernel pids and tids are kept only
// for the user's orientation.
package trace
