package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// showOptions are the flags of envbisect show.
type showOptions struct {
	exprs      []string // -e, as given
	procs      []string // --proc
	stringSize int      // -s
	sizeSet    bool     // -s was given (JSON shows everything unless it is)
	summary    bool
	json       bool
	noStart    bool
	seq        bool
	files      bool
}

func newShowCommand(s streams) *cobra.Command {
	var o showOptions
	cmd := &cobra.Command{
		Use:   "show TRACE [flags]",
		Short: "print a trace as strace-like text or JSON",
		Long: `show prints the system calls of a trace as strace prints them, one line per
call, with process events and the recording's header, start events and end as
"# " comment lines:

  # start: env LANG=C.UTF-8
  [1] openat(AT_FDCWD, "/etc/hosts", O_RDONLY|O_CLOEXEC) = 3
  [1] read(3, "127.0.0.1\tlocalhost\n"..., 4096) = 220
  [2:5] connect(4, {sa_family=AF_INET, sin_port=htons(80), ...}, 16) = 0
  [2] +++ exited with 1 +++

[P] is logical process P on its main thread, [P:T] thread T of process P when
T is not its main thread. --seq adds each call's number (#412), the number
locate reports.

--json prints one JSON object per line instead: the header, each start event,
call and process event, and the end, each with an "event" member; with -e only
the selected calls. Strings and buffers are complete in JSON unless -s is given.
A path or executable that is not valid UTF-8 is also given exactly, as base64, in
path_base64, path2_base64 or exe_base64; a string argument or buffer that is not
text is an object {"data": BASE64, "encoding": "base64"}.

--summary counts the calls per syscall, the errors, processes, threads and
bytes read and written, like strace -c.

Selecting (as strace): -e trace=NAME,... (or -e NAME,...) shows only those
syscalls; -e 'trace=!NAME,...' all others; classes %file, %desc, %process,
%memory, %signal and %creds select by what the syscall table says a call
does; "all" and "none" as in strace; a name prefixed with ? is ignored when
this architecture has no such call. -e may be repeated: the selections add up.
The text keeps process events under -e, as strace does.

--proc N (repeatable, or a comma list) shows only the calls and process events
of logical process N.

` + filesHelp + `

A trace cut short (the recorder was killed, the disk filled) is printed up to
its last complete frame, followed by a warning on stderr; it is not an error,
since everything printed is valid.

Exit codes:
  0  the trace was printed, also when it was cut short (see above)
  1  the trace cannot be read: missing, not an envbisect trace, a format
     version this envbisect does not know, damaged (what came before the
     damage is printed), or of an architecture without a syscall table
  2  bad flags or arguments, such as an unknown syscall name in -e`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("show needs exactly one trace file, got %d arguments (see 'envbisect show --help')", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.sizeSet = cmd.Flags().Changed("string-limit")
			return runShow(cmd.Context(), o, args[0], s)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&o.exprs, "expr", "e", nil, "select syscalls as strace does: trace=NAME,..., trace=!NAME,..., %file (repeatable)")
	f.StringSliceVar(&o.procs, "proc", nil, "show only logical process `N` (repeatable, or a comma list)")
	f.IntVarP(&o.stringSize, "string-limit", "s", render.DefaultStringSize, "show at most `SIZE` bytes of each string and buffer; 0: all")
	f.BoolVar(&o.summary, "summary", false, "print call counts per syscall instead of the calls")
	f.BoolVar(&o.json, "json", false, "print JSON lines (with --summary: one JSON object)")
	f.BoolVar(&o.noStart, "no-start", false, "leave out the start events (argv, environment, limits, ...)")
	f.BoolVar(&o.seq, "seq", false, "prefix each call with its global number (#N)")
	f.BoolVar(&o.files, "files", false, "list the files the trace keeps (ID, stored or why not, size, SHA-256, path) instead of the calls")
	return cmd
}

// runShow prints the trace at path as o asks.
func runShow(ctx context.Context, o showOptions, path string, s streams) error {
	if o.stringSize < 0 {
		return usageError("-s %d: the string limit must be 0 (no limit) or more", o.stringSize)
	}
	if o.files {
		if o.summary || len(o.exprs) > 0 || len(o.procs) > 0 {
			return usageError("--files lists the trace's files: it takes no --summary, -e or --proc")
		}
		return runShowFiles(o, path, s)
	}
	sel, err := parseSyscallExprs(o.exprs)
	if err != nil {
		return withCode(exitUsage, err)
	}
	procs, err := procSet(o.procs)
	if err != nil {
		return withCode(exitUsage, err)
	}

	r, err := tracefile.Open(path)
	if err != nil {
		return withCode(exitError, nameFile(path, err))
	}
	defer r.Close()
	h := r.Header()
	tab, err := systable.New(h.Arch)
	if err != nil {
		return withCode(exitError, fmt.Errorf("trace %s: %w", path, err))
	}
	filter, warnings, err := sel.resolve(tab, h)
	if err != nil {
		return withCode(exitUsage, err)
	}
	filter.Procs = procs
	for _, w := range warnings {
		fmt.Fprintf(s.err, "warning: %s\n", w)
	}

	opts := render.Options{StringSize: o.stringSize, NoStart: o.noStart, Seq: o.seq, Filter: filter}
	if o.json && !o.sizeSet {
		opts.StringSize = 0
	}
	out := bufio.NewWriterSize(s.out, 64<<10)
	var rd render.Renderer
	switch {
	case o.summary && o.json:
		rd = render.NewJSONSummary(out, tab, opts)
	case o.summary:
		rd = render.NewSummary(out, tab, opts)
	case o.json:
		rd = render.NewJSON(out, tab, opts)
	default:
		rd = render.NewText(out, tab, opts)
	}

	// The start events are known once the first event has been read.
	ev, rerr := r.Next()
	if err := rd.Begin(h, r.Start()); err != nil {
		return withCode(exitError, fmt.Errorf("write: %w", err))
	}
	for rerr == nil {
		if err := ctx.Err(); err != nil {
			out.Flush()
			return withCode(exitError, errors.New("interrupted"))
		}
		if err := rd.Event(ev); err != nil {
			return withCode(exitError, fmt.Errorf("write: %w", err))
		}
		ev, rerr = r.Next()
	}

	switch {
	case rerr == io.EOF:
		err = rd.Finish(r.End())
	case errors.Is(rerr, tracefile.ErrTruncated):
		err = rd.Finish(nil)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return withCode(exitError, fmt.Errorf("write: %w", err))
	}
	return showEnd(s, path, rerr)
}

// nameFile makes sure an error message names the trace file.
func nameFile(path string, err error) error {
	if strings.Contains(err.Error(), path) {
		return err
	}
	return fmt.Errorf("trace %s: %w", path, err)
}

// procSet turns --proc values into a set; nil when none were given.
func procSet(procs []string) (map[uint32]bool, error) {
	if len(procs) == 0 {
		return nil, nil
	}
	set := make(map[uint32]bool, len(procs))
	for _, p := range procs {
		n, err := strconv.ParseUint(strings.TrimSpace(p), 10, 32)
		if err != nil || n == 0 {
			return nil, fmt.Errorf("--proc %s: want a logical process number, 1 or more (the N of [N] in show's output)", p)
		}
		set[uint32(n)] = true
	}
	return set, nil
}

// syscallExpr is one -e expression: a list of names, classes and numbers,
// selected or (with !) deselected.
type syscallExpr struct {
	text   string // as given, for messages
	negate bool
	tokens []string
}

// syscallExprs are the -e expressions, parsed before the trace (and so
// its architecture's table) is known.
type syscallExprs []syscallExpr

// parseSyscallExprs parses strace's -e trace=[!]LIST and -e [!]LIST.
func parseSyscallExprs(exprs []string) (syscallExprs, error) {
	var out syscallExprs
	for _, e := range exprs {
		list := e
		if q, v, ok := strings.Cut(e, "="); ok {
			if q != "trace" && q != "t" {
				return nil, fmt.Errorf("-e %s: show only selects syscalls (-e trace=NAME,...), not %q", e, q)
			}
			list = v
		}
		x := syscallExpr{text: e}
		if rest, ok := strings.CutPrefix(list, "!"); ok {
			x.negate, list = true, rest
		}
		for _, tok := range strings.Split(list, ",") {
			if tok = strings.TrimSpace(tok); tok == "" {
				return nil, fmt.Errorf("-e %s: empty syscall name", e)
			}
			x.tokens = append(x.tokens, tok)
		}
		out = append(out, x)
	}
	return out, nil
}

// syscallClasses are strace's classes that the syscall table's effects
// describe.
var syscallClasses = map[string]systable.Effect{
	"%file":    systable.NamesPath,
	"%desc":    systable.UsesFD | systable.CreatesFD | systable.CreatesFDPair | systable.ClosesFD | systable.DupsFD,
	"%process": systable.CreatesProcess | systable.ExecsImage | systable.EndsThread | systable.WaitsChild | systable.SignalsProcess,
	"%memory":  systable.MapsMemory,
	"%signal":  systable.ChangesSignals | systable.SignalsProcess,
	"%creds":   systable.ChangesCreds,
}

// resolve turns the expressions into a filter by tab's names. The
// selections add up: each expression adds the calls it selects, a negated
// one all calls but those it names. It warns about selected calls the
// trace cannot hold because the recorder let them through unrecorded.
func (xs syscallExprs) resolve(tab *systable.Table, h *trace.Header) (render.Filter, []string, error) {
	if len(xs) == 0 {
		return render.Filter{}, nil, nil
	}
	filtered := make(map[string]bool, len(h.Filtered))
	for _, n := range h.Filtered {
		filtered[n] = true
	}
	var warnings []string
	set, inverted := map[uint32]bool{}, false // the selection: set, or everything but set
	for _, x := range xs {
		nrs := map[uint32]bool{}
		all := false
		for _, tok := range x.tokens {
			switch {
			case tok == "all":
				all = true
			case tok == "none":
			case strings.HasPrefix(tok, "%"):
				eff, ok := syscallClasses[tok]
				if !ok {
					return render.Filter{}, nil, fmt.Errorf("-e %s: unknown class %s (known: %s)", x.text, tok, strings.Join(classNames(), ", "))
				}
				for _, row := range tab.All() {
					if row.Effects&eff != 0 {
						nrs[uint32(row.Nr)] = true
					}
				}
			default:
				name, optional := strings.CutPrefix(tok, "?")
				nr, ok := syscallNumber(tab, name)
				if !ok {
					if optional {
						continue
					}
					return render.Filter{}, nil, fmt.Errorf("-e %s: unknown syscall %q on %s (see 'envbisect syscalls')", x.text, name, tab.Arch)
				}
				nrs[nr] = true
				if filtered[name] && !x.negate {
					warnings = append(warnings, fmt.Sprintf("%s is never in this trace: the recorder let it through without recording it", name))
				}
			}
		}
		switch {
		case all && !x.negate:
			return render.Filter{}, warnings, nil // everything is selected
		case all: // !all adds nothing
		case !x.negate && !inverted:
			for nr := range nrs {
				set[nr] = true
			}
		case !x.negate && inverted: // ¬S ∪ P = ¬(S \ P)
			for nr := range nrs {
				delete(set, nr)
			}
		case x.negate && !inverted: // S ∪ ¬N = ¬(N \ S)
			for nr := range set {
				delete(nrs, nr)
			}
			set, inverted = nrs, true
		default: // ¬S ∪ ¬N = ¬(S ∩ N)
			for nr := range set {
				if !nrs[nr] {
					delete(set, nr)
				}
			}
		}
	}
	if inverted {
		return render.Filter{Hide: set}, warnings, nil
	}
	return render.Filter{Syscalls: set}, warnings, nil
}

// syscallNumber finds a syscall by name, or by the syscall_N name show
// gives calls the table does not know.
func syscallNumber(tab *systable.Table, name string) (uint32, bool) {
	if row, ok := tab.ByName(name); ok {
		return uint32(row.Nr), true
	}
	if n, ok := strings.CutPrefix(name, "syscall_"); ok {
		if nr, err := strconv.ParseUint(n, 10, 32); err == nil {
			return uint32(nr), true
		}
	}
	return 0, false
}

func classNames() []string {
	var out []string
	for c := range syscallClasses {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// readEnd is how show ends once it has written what it read of path:
// the end of the trace, a trace cut short (a warning: what was there is
// shown), or an error reading it.
func showEnd(s streams, path string, rerr error) error {
	switch {
	case rerr == io.EOF:
		return nil
	case errors.Is(rerr, tracefile.ErrTruncated):
		fmt.Fprintf(s.err, "warning: %s: %s\n", path, strings.TrimPrefix(rerr.Error(), "read trace "+path+": "))
		return nil
	}
	return withCode(exitError, nameFile(path, rerr))
}
