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
// Numbers are per architecture: the rows live in table_<arch>.go. Calls
// the table does not describe are still recorded with raw arguments; ByNr
// returns an Unknown row for them.
package systable
