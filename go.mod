module github.com/envbisect/envbisect

go 1.26.8

require (
	github.com/aymanbagabas/go-udiff v0.4.1
	github.com/cilium/ebpf v0.20.0
	github.com/elastic/go-seccomp-bpf v1.6.0
	github.com/fxamacker/cbor/v2 v2.9.6
	github.com/klauspost/compress v1.20.3
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
	golang.org/x/net v0.46.0
	golang.org/x/sys v0.49.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/term v0.47.0 // indirect
)

tool github.com/cilium/ebpf/cmd/bpf2go
