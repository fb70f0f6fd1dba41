package main

import (
	"bufio"
	"context"
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Exit codes of diff, as diff(1) has them.
const (
	diffSame    = 0
	diffDiffers = 1
	diffTrouble = 2
)

// diffOptions are the flags of envbisect diff.
type diffOptions struct {
	json       bool
	stringSize int
	sizeSet    bool // -s was given (JSON shows everything unless it is)
	allFields  bool
	context    int
	window     int
}

func newDiffCommand(s streams) *cobra.Command {
	var o diffOptions
	cmd := &cobra.Command{
		Use:   "diff GOOD BAD [flags]",
		Short: "compare two traces: the calls whose results differ",
		Long: `diff compares two recordings of the same command, typically one from where it
works (GOOD) and one from where it fails (BAD), and prints the calls whose
results differ, thread by thread:

  --- GOOD good.envb: make test (host ci-1, Linux 6.1.0)
  +++ BAD  bad.envb: make test (host laptop, Linux 6.8.0)
  @@ [1] /usr/bin/python3 @@
  - #412 [1] openat(AT_FDCWD, "/etc/ssl/openssl.cnf", O_RDONLY) = 3
  + #398 [1] openat(AT_FDCWD, "/etc/ssl/openssl.cnf", O_RDONLY) = -1 ENOENT (No such file or directory)
  < #413 [1] read(3, "openssl_conf = default_conf\n"..., 4096) = 1523
  > #399 [1] write(2, "cannot load configuration\n", 26) = 26
  - #420 [1] read(4, "a=1\nb=2\n", 4096) = 8
  + #406 [1] read(4, "a=1\nb=9\n", 4096) = 8
      buf: 8 bytes in both, first difference at offset 6
      @@ -1,2 +1,2 @@
       a=1
      -b=2
      +b=9
  # 1234 calls compared, 2 differ, 1 only in GOOD, 1 only in BAD; ...

Each section (@@ ... @@) is one thread matched across the two traces, [P] or
[P:T] as show prints them, with its differences in the order they happened:
"-"/"+" lines are the same call in GOOD and in BAD with different results
(return value, error, or the data the kernel wrote, described on the
indented lines below them; data the program sent that differs is described
too, marked "sent"); "<" lines are calls made in GOOD only and ">" lines
calls made in BAD only (long runs are summarised). #N is a call's number
in its own trace. Then come the processes and threads found in one trace
only, the start events that differ (environment, limits, cwd, ids, ...),
and a summary line.

Processes are matched by lineage (parent, order among its children, the
program they execute), threads by their creator, creation order and what
they do first, so that threads started in another order still match. The
calls of two matched threads are aligned by syscall and resource (the path,
or what an fd refers to), resynchronising within a window of calls (--window)
when one run made extra calls, such as more iterations of a polling loop.

Results are compared after normalising what differs between any two runs:
pids (through the process match), fd numbers (what they refer to is
compared instead), addresses. Times and time-like results (clock_gettime,
gettimeofday, time, rusage), random data (getrandom, AT_RANDOM), inode and
device numbers and times inside struct stat, ports the kernel picked, the
order of directory entries and per-process /proc files are ignored unless
--all-fields is given.

--json prints one JSON object per difference instead, each with a "diff"
member: "call" (with "good" and "bad" calls as show --json prints them),
"only_good", "only_bad", "exit", "proc_only_good", "proc_only_bad",
"thread_only_good", "thread_only_bad", "start", and a last "summary".

A trace cut short (its recorder killed, its disk full) is compared up to its
last complete frame, with a warning, and diff exits 2: what the cut took away
is not known, so neither "no differences" nor the differences at its end can be
trusted.

Exit codes (as diff(1)):
  0  no differences
  1  differences
  2  trouble: a trace cannot be read or is cut short, the traces are of
     different architectures, bad flags or arguments`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usageError("diff needs two trace files, GOOD and BAD; got %d arguments (see 'envbisect diff --help')", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.sizeSet = cmd.Flags().Changed("string-limit")
			return runDiff(cmd.Context(), o, args[0], args[1], s)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print one JSON object per difference")
	f.IntVarP(&o.stringSize, "string-limit", "s", render.DefaultStringSize, "show at most `SIZE` bytes of each string and buffer; 0: all")
	f.BoolVar(&o.allFields, "all-fields", false, "also compare times, random data, inode and device numbers, ports and addresses")
	f.IntVarP(&o.context, "context", "C", 0, "show `N` matching calls before and after each difference")
	f.IntVar(&o.window, "window", align.DefaultWindow, "resynchronise within `N` calls when one run made extra calls")
	return cmd
}

// runDiff compares the traces at good and bad as o asks. It returns nil
// when they do not differ, an exit code 1 without message when they do.
func runDiff(ctx context.Context, o diffOptions, good, bad string, s streams) error {
	switch {
	case o.stringSize < 0:
		return usageError("-s %d: the string limit must be 0 (no limit) or more", o.stringSize)
	case o.context < 0:
		return usageError("--context %d: want 0 or more calls", o.context)
	case o.window < 1:
		return usageError("--window %d: want 1 or more calls", o.window)
	}
	// Memory holds the calls without their buffers; the buffers are read
	// in a second pass over both traces side by side, the calls printed
	// in a third (diff_stream.go).
	ha, err := readDiffHeader(good)
	if err != nil {
		return err
	}
	hb, err := readDiffHeader(bad)
	if err != nil {
		return err
	}
	if ha.Arch != hb.Arch {
		return withCode(diffTrouble, fmt.Errorf("%s is a trace of %s, %s of %s: traces of different architectures cannot be compared",
			good, ha.Arch, bad, hb.Arch))
	}
	tab, err := systable.New(ha.Arch)
	if err != nil {
		return withCode(diffTrouble, fmt.Errorf("trace %s: %w", good, err))
	}
	defer debug.SetGCPercent(debug.SetGCPercent(batchGCPercent))
	ta, err := readDiffTrace(ctx, good, s)
	if err != nil {
		return err
	}
	// The echoed ids of netlink and DNS exchanges differ from run to run:
	// the graph of the good trace says where they lie. It is built, and
	// let go, before the bad trace is read.
	echo, err := echoOf(ctx, ta, tab, s)
	if err != nil {
		return withCode(diffTrouble, err)
	}
	tb, err := readDiffTrace(ctx, bad, s)
	if err != nil {
		return err
	}
	paths := trace.CallPaths(ta.events, tb.events)
	var readers [2]*eventStream
	var fillErr error
	fill := func(inB bool, c *trace.Call) {
		r := readers[0]
		if inB {
			r = readers[1]
		}
		if err := r.r.FillData(c); err != nil && fillErr == nil {
			fillErr = err
		}
	}
	res, cmp := align.Prepare(tab,
		align.Run{Header: &ta.header, Start: trace.TouchedMountsOnly(ta.start, paths), Events: ta.events},
		align.Run{Header: &tb.header, Start: trace.TouchedMountsOnly(tb.start, paths), Events: tb.events},
		align.Options{AllFields: o.allFields, Window: o.window, Echo: echo, Fill: fill})
	ta.events, tb.events = nil, nil // the calls are res's now
	if err := compareStreamed(ctx, tab, ta, tb, res, cmp, &readers); err != nil {
		return withCode(diffTrouble, err)
	}
	if fillErr != nil {
		return withCode(diffTrouble, fillErr)
	}
	if err := readPrinted(ctx, ta, tb, res, o.context, s); err != nil {
		return withCode(diffTrouble, err)
	}

	out := bufio.NewWriterSize(s.out, 64<<10)
	if o.json {
		size := o.stringSize
		if !o.sizeSet {
			size = 0
		}
		err = render.WriteDiffJSON(out, tab, res, size)
	} else {
		err = render.WriteDiffText(out, tab, res, render.DiffOptions{StringSize: o.stringSize, Context: o.context},
			render.DiffSide{Name: good, Header: &ta.header}, render.DiffSide{Name: bad, Header: &tb.header})
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return withCode(diffTrouble, fmt.Errorf("write: %w", err))
	}
	if cut := cutShortNames(good, ta.cut, bad, tb.cut); cut != "" {
		return withCode(diffTrouble, fmt.Errorf("%s cut short: compared up to the last complete frame, so the comparison is partial "+
			"(record the run again to compare it whole)", cut))
	}
	if res.Differs() {
		return withCode(diffDiffers, nil)
	}
	return nil
}

// cutShortNames says which of the two traces are cut short: "" for none,
// "GOOD is", "GOOD and BAD are".
func cutShortNames(good string, cutGood bool, bad string, cutBad bool) string {
	switch {
	case cutGood && cutBad:
		return good + " and " + bad + " are"
	case cutGood:
		return good + " is"
	case cutBad:
		return bad + " is"
	}
	return ""
}
