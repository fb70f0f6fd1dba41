# envbisect — common tasks. `make help` lists them.
#
# The tests trace real processes and must run as root: `sudo make test`.
# sudo's PATH often lacks Go, so GO falls back to /usr/local/go/bin/go and
# that directory is put first on PATH for everything make runs.

GO ?= $(shell command -v go 2>/dev/null || echo /usr/local/go/bin/go)
export PATH := $(dir $(GO)):$(PATH)

FUZZTIME ?= 30s
BENCHFLAGS ?=

.PHONY: all help build test bench fuzz vet demo

all: build

help:
	@echo 'make build    build bin/envbisect'
	@echo 'make demo     build, then record and locate the thesis Figure 7.9 program (as root)'
	@echo 'make test     run all tests (as root: sudo make test)'
	@echo 'make vet      go vet and a gofmt check'
	@echo 'make bench    build, then run tools/bench (BENCHFLAGS="--pin -n 3" ...)'
	@echo 'make casestudies  build, then locate the thesis case studies with Debian mpd, vsftpd, lighttpd and print the table (as root)'
	@echo 'make fuzz     fuzz the trace reader for FUZZTIME (default 30s)'

build:
	$(GO) build -o bin/envbisect ./cmd/envbisect

demo: build
	sh tools/demo/fig79.sh

# -count=1: the tests depend on the machine (root, kernel, installed
# programs), which go test's result cache cannot see.
test:
	$(GO) test -count=1 ./...

vet:
	$(GO) vet ./... ./testdata/victims/gothreads
	@out=$$(gofmt -l $$(git ls-files -co --exclude-standard '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*')); \
	if [ -n "$$out" ]; then echo "gofmt: these files need formatting (gofmt -w):"; echo "$$out"; exit 1; fi

bench: build
	$(GO) run ./tools/bench $(BENCHFLAGS)

.PHONY: casestudies
casestudies: build
	$(GO) run ./tools/casestudies -envbisect bin/envbisect

fuzz:
	@grep -qs 'func FuzzReader(' tracefile/*_test.go || \
		{ echo 'make fuzz: no FuzzReader in tracefile/*_test.go'; exit 1; }
	$(GO) test -run '^$$' -fuzz='^FuzzReader$$' -fuzztime=$(FUZZTIME) ./tracefile/
