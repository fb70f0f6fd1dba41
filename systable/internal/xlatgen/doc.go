// Command xlatgen writes envbisect's x86-64 syscall numbers, flag sets
// and ABI constants from per-set name lists, the way strace's xlat files
// work: systable/xlat/<set>.in lists the names of one flag set, the
// headers they come from (#From) and a literal value for each name no
// installed header defines. xlatgen compiles one small C program per
// list against those headers with an x86-64 C compiler, runs it to learn
// the values, and writes Go files with the values as literals and each
// set's provenance. It is run by `go generate ./systable`; the output is
// committed, so building envbisect needs no C compiler, and CI regenerates
// and fails on a difference.
//
// The .in format is described in systable/doc.go.
package main
