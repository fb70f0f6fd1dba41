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
// epoll, pipe, socketpair), what it does to a socket, and unmapping.
// Multiplexing calls (fcntl, ioctl, prctl) have request rows
// (requests.go): each request's size, direction, flag set and effect
// (sets close-on-exec, changes the open file description, names the
// thread). Rules on enum and flag values live here too (enums.go), so
// no stage compares a flag's name.
//
// Struct layouts are data (structs.go): one table of C types with their
// size and fields (offset, size, kind, volatility), struct stat per
// architecture, from which show, diff and the dependency tracker all
// decode; socket addresses (sockaddr.go) and directory records
// (dirents.go) are decoded once here. CloneSharing says what a clone's
// flags share, and FDTable applies the kernel's rules for how calls
// change an fd table, for every tracker that keeps one.
//
// Numbers are per architecture: the rows live in table_<arch>.go. Calls
// the table does not describe are still recorded with raw arguments; ByNr
// returns an Unknown row for them.
package systable
