package bpf

// record.bpf.c (with wire.h, maps.h, helpers.h, plan.h, send.h and
// headers/kernel.h) is compiled into record_x86_bpfel.o, and its wire types
// and enums become Go in record_x86_bpfel.go; both are committed, so
// building needs no clang. Regenerate with `make generate` (clang,
// llvm-strip and libbpf's headers: apt-get install clang llvm libbpf-dev).
// -mcpu=v3 (Linux 5.1) gives the verifier 32-bit jumps to bound with;
// bpf2go's default is v1.
//
//go:generate go tool bpf2go -cc clang -strip llvm-strip -cflags "-O2 -g -Wall -Werror -mcpu=v3" -target amd64 -type call_rec -type buf_rec -type chunk_rec -type fork_rec -type exec_rec -type exit_rec -type rec_type -type call_flags -type buf_flags -type chunk_flags -type fork_flags -type exit_flags -type exec_flags -type dir -type part -type arg_kind -type len_from -type arg_flags -type desc_flags -type req_class -type filter_kind -type limits record record.bpf.c
