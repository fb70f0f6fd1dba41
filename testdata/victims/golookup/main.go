// Command golookup is a victim program for envbisect's tests: a static Go
// binary (build it with CGO_ENABLED=0, so that Go's own resolver reads
// /etc/nsswitch.conf, /etc/hosts and /etc/resolv.conf, no libc involved)
// that resolves a host name in several goroutines at once, as a service
// finds its database at start.
//
// Usage: golookup NAME ADDR
//
// It first writes its own TracerPid line of /proc/self/status to stderr
// (tests check that a run was not traced), then looks NAME up in 8
// goroutines (the Go runtime moves them between its threads) and exits 0
// when every lookup gives ADDR first, 1 otherwise, printing what it got.
//
// It lives under testdata, so `go build ./...` skips it; build it with
// `CGO_ENABLED=0 go build ./testdata/victims/golookup`.
package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"
)

const lookups = 8

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: golookup NAME ADDR")
		os.Exit(2)
	}
	name, want := os.Args[1], os.Args[2]
	tracerPid()
	r := &net.Resolver{PreferGo: true}
	var wg sync.WaitGroup
	got := make([]string, lookups)
	for i := range got {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			addrs, err := r.LookupHost(ctx, name)
			switch {
			case err != nil:
				got[i] = err.Error()
			case len(addrs) == 0:
				got[i] = "no address"
			default:
				got[i] = addrs[0]
			}
		}(i)
	}
	wg.Wait()
	code := 0
	for i, g := range got {
		if g != want {
			fmt.Fprintf(os.Stderr, "golookup: lookup %d of %s: %s, want %s\n", i, name, g, want)
			code = 1
		}
	}
	if code == 0 {
		fmt.Printf("golookup: %s is %s\n", name, want)
	}
	os.Exit(code)
}

// tracerPid copies the TracerPid line of /proc/self/status to stderr.
func tracerPid() {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		fmt.Fprintln(os.Stderr, "golookup:", err)
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "TracerPid:") {
			fmt.Fprintln(os.Stderr, sc.Text())
			return
		}
	}
}
