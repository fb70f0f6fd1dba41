// Package bpf will hold the eBPF programs of the low-overhead recorder
// backend and their generated Go loaders. Not built yet: it is the work of
// the eBPF issue.
package bpf
