// Command locateruns measures how many runs `envbisect locate` makes on
// every end-to-end scenario (internal/scenarios.All, the cases of
// test/e2e/scenarios) and every thesis case study (scenarios.Thesis, the
// cases of test/e2e/casestudies and tools/casestudies), and prints a
// Markdown table: recorded and replayable calls, the candidates the search
// ran over (locate's "space.candidates", "—" when the report has none, as
// a search over recorded call prefixes), runs, the repeatability check's
// runs, the ⌈log2 N⌉+3 bound, the status, the culprit and locate's wall
// time. These are the "runs per locate" figures of docs/locate.md
// (issue 17: before and after the search over differing resources).
//
// Each case is recorded in its good environment and located in its bad
// one exactly as its test does it, with internal/scenarios' helpers: a
// scenario with Prepare, Run(RecordArgv) and RunIn(LocateArgv --json), a
// case study with Case.Study. The cases run one after the other (their
// runs judge daemons by timing, and the machine is shared). Under the
// table, notes list where locate's answer is not what the case's test
// wants.
//
// It must run as root (the cases mount their environments in private
// mount namespaces, and envbisect traces); it exits 2 otherwise or on a
// bad flag, 1 when a case could not run or its answer is not the one its
// test wants, 0 otherwise. A case study's missing Debian package is
// installed with apt-get, without starting its service.
//
//	make locate-runs                                  # builds, then runs every case
//	go run ./tools/locateruns -envbisect bin/envbisect -run 'fig79|mpd'
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"syscall"
)

// options are the command's flags.
type options struct {
	envbisect string
	root      string
	pick      *regexp.Regexp
	keep      bool
	list      bool
}

func main() {
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		os.Exit(2)
	}
	cases := pick(allCases(), o.pick)
	if o.list {
		for _, c := range cases {
			fmt.Printf("%s\t%s\n", c.name, c.kind)
		}
		return
	}
	if len(cases) == 0 {
		fmt.Fprintf(os.Stderr, "locateruns: no case matches -run %q (-list lists them)\n", o.pick)
		os.Exit(2)
	}
	if os.Geteuid() != 0 {
		fmt.Fprintln(os.Stderr, "locateruns: run as root: the cases mount their environments in private mount namespaces, and envbisect traces")
		os.Exit(2)
	}
	if o.envbisect, err = filepath.Abs(o.envbisect); err == nil {
		_, err = os.Stat(o.envbisect)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "locateruns: the envbisect binary: %v (make build)\n", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	rows, err := measureAll(ctx, cases, o, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "locateruns:", err)
		os.Exit(1)
	}
	writeTable(os.Stdout, rows)
	for _, r := range rows {
		if r.err != nil || len(r.notes) > 0 {
			os.Exit(1)
		}
	}
}

// parseFlags reads the command line; the error has been printed.
func parseFlags(args []string, errOut io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("locateruns", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.StringVar(&o.envbisect, "envbisect", "bin/envbisect", "the envbisect binary")
	fs.StringVar(&o.root, "root", ".", "the repository root (its testdata/victims are built for the scenarios)")
	run := fs.String("run", "", "only the cases whose name matches this regular expression")
	fs.BoolVar(&o.keep, "keep", false, "keep every case's work directory (traces, environments) and print where it is")
	fs.BoolVar(&o.list, "list", false, "list the cases (name and kind) that -run picks, and run none")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: locateruns [flags]\n\n"+
			"Records every scenario and thesis case study in its good environment, locates it in its bad one,\n"+
			"and prints the runs per locate as a Markdown table. Needs root.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected arguments %q (pick cases with -run)", fs.Args())
		fmt.Fprintln(errOut, "locateruns:", err)
		return o, err
	}
	re, err := regexp.Compile(*run)
	if err != nil {
		fmt.Fprintln(errOut, "locateruns: -run:", err)
		return o, err
	}
	o.pick = re
	return o, nil
}
