// Command gothreads is a victim program for envbisect's tests: a Go
// process, with the Go runtime's many threads, whose goroutines read files
// concurrently and run a child process through os/exec (fork+exec of
// /bin/true, with the runtime's pipe and pidfd handling around it).
//
// Usage: gothreads [FILE...]   (default: /etc/hostname /etc/hosts /etc/passwd)
//
// Each FILE is read by 4 goroutines at once; one more goroutine runs
// /bin/true. It prints "gothreads: read N bytes, ran /bin/true" and exits 0,
// or prints the error and exits 1.
//
// It lives under testdata, so `go build ./...` skips it; build it with
// `go build ./testdata/victims/gothreads` (testutil.BuildGo does).
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
)

const readersPerFile = 4

func main() {
	files := os.Args[1:]
	if len(files) == 0 {
		files = []string{"/etc/hostname", "/etc/hosts", "/etc/passwd"}
	}

	var (
		wg    sync.WaitGroup
		total atomic.Int64
		mu    sync.Mutex
		errs  []error
	)
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	for _, f := range files {
		for range readersPerFile {
			wg.Add(1)
			go func() {
				defer wg.Done()
				b, err := os.ReadFile(f)
				if err != nil {
					fail(err)
					return
				}
				total.Add(int64(len(b)))
			}()
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := exec.Command("/bin/true").Run(); err != nil {
			fail(fmt.Errorf("run /bin/true: %w", err))
		}
	}()
	wg.Wait()

	if err := errors.Join(errs...); err != nil {
		fmt.Fprintln(os.Stderr, "gothreads:", err)
		os.Exit(1)
	}
	fmt.Printf("gothreads: read %d bytes, ran /bin/true\n", total.Load())
}
