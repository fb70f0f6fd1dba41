// Command casestudies runs the thesis' three case studies with the real
// Debian programs (internal/scenarios.Thesis: mpd, vsftpd and its literal
// variant, lighttpd) and prints a Markdown table of what envbisect found
// next to the thesis' figures: recorded calls, the culprit's position and
// call, runs against ⌈log2 N⌉+3, locate's and record's wall time, and the
// trace's size. `make casestudies` runs it; docs/case-studies.md explains
// the cases and shows the commands to reproduce each by hand.
//
// It must run as root (the cases mount their environments in private
// mount namespaces, and envbisect traces). Missing packages are installed
// with apt-get, without starting their services. It exits 1 when a case
// could not run or was not located correctly (the problems are listed
// under the table).
//
//	go run ./tools/casestudies -envbisect bin/envbisect
//	go run ./tools/casestudies -keep mpd lighttpd
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/envbisect/envbisect/internal/scenarios"
)

func main() {
	fs := flag.NewFlagSet("casestudies", flag.ExitOnError)
	bin := fs.String("envbisect", "bin/envbisect", "the envbisect binary")
	root := fs.String("root", ".", "the repository root")
	keep := fs.Bool("keep", false, "keep every case's work directory (traces, configs) and print where it is")
	quiet := fs.Bool("q", false, "no progress on stderr")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: casestudies [flags] [CASE...]\n\nRuns the thesis' case studies (default: all of %s) and prints a Markdown table.\n\n",
			strings.Join(names(scenarios.Thesis()), ", "))
		fs.PrintDefaults()
	}
	fs.Parse(os.Args[1:])
	cases, err := pick(fs.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "casestudies:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	progress := io.Writer(os.Stderr)
	if *quiet {
		progress = io.Discard
	}
	ok, err := run(ctx, cases, *root, *bin, *keep, os.Stdout, progress)
	if err != nil {
		fmt.Fprintln(os.Stderr, "casestudies:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

func names(cases []scenarios.Case) []string {
	var out []string
	for _, c := range cases {
		out = append(out, c.Name)
	}
	return out
}

// pick returns the cases named, or all of them.
func pick(args []string) ([]scenarios.Case, error) {
	if len(args) == 0 {
		return scenarios.Thesis(), nil
	}
	var out []scenarios.Case
	for _, a := range args {
		c, ok := scenarios.ThesisCase(a)
		if !ok {
			return nil, fmt.Errorf("no case %q (cases: %s)", a, strings.Join(names(scenarios.Thesis()), ", "))
		}
		out = append(out, c)
	}
	return out, nil
}

// run studies every case one after the other (their timings would suffer
// from running side by side) and writes the table to out. ok is false when
// a case could not run or has problems.
func run(ctx context.Context, cases []scenarios.Case, root, bin string, keep bool, out, progress io.Writer) (ok bool, err error) {
	if os.Geteuid() != 0 {
		return false, errors.New("run as root: the cases mount their environments and envbisect traces")
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return false, err
	}
	if _, err := os.Stat(bin); err != nil {
		return false, fmt.Errorf("%v (make build)", err)
	}
	if err := scenarios.Install(ctx, cases...); err != nil {
		return false, err
	}
	outs := make([]*scenarios.Outcome, len(cases))
	errs := map[string]error{}
	ok = true
	for i := range cases {
		c := &cases[i]
		if m := c.Missing(); len(m) > 0 {
			errs[c.Name] = fmt.Errorf("missing %s", strings.Join(m, ", "))
			ok = false
			continue
		}
		dir, err := os.MkdirTemp("", "envbisect-case-"+c.Name+"-")
		if err != nil {
			return false, err
		}
		fmt.Fprintf(progress, "casestudies: %s: record, then locate ...\n", c.Name)
		o, err := c.Study(ctx, root, dir, bin)
		outs[i] = o
		if err != nil {
			errs[c.Name] = err
			ok = false
		} else if len(o.Problems()) > 0 {
			ok = false
		}
		if o != nil && o.Report != nil {
			fmt.Fprintf(progress, "casestudies: %s: %s in %d runs, %.1f s\n", c.Name, o.Report.Status, o.Report.Runs, o.Locate.Elapsed.Seconds())
		}
		if keep {
			fmt.Fprintf(progress, "casestudies: %s: kept %s\n", c.Name, dir)
		} else {
			os.RemoveAll(dir)
		}
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
	}
	scenarios.WriteTable(out, cases, outs, errs)
	return ok, nil
}
