package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// depsOptions are the flags of envbisect deps.
type depsOptions struct {
	dot        bool
	json       bool
	group      int
	stringSize int
}

func newDepsCommand(s streams) *cobra.Command {
	var o depsOptions
	cmd := &cobra.Command{
		Use:   "deps TRACE [--dot] [--json] [--group ID]",
		Short: "print the dependency groups of a trace, or its call graph as Graphviz dot",
		Long: `deps prints what envbisect's dependency tracker makes of a trace: the
resources the calls touch (open files, paths, working directories, processes,
pipes, sockets, epoll sets, mappings), which call depends on which (an fd's
read on the open that made the fd, an open under a directory on the mkdir that
made it, a read of a file on the write that filled it), and the groups of
linked calls that reports and the search speak of ("the file /etc/hosts",
"the connection to 127.0.0.1:5432"):

     ID  KIND        CLASS        CALLS  FIRST  LAST  NAME
      4  file        environment      5     83    87  /etc/ld.so.cache
     12  pipe        internal         7     55   298  pipe:[81152] (#55)

CLASS says whose a group is. environment: files, outside connections, the
kernel's answers, which locate may replay; internal: what the traced processes
share among themselves (pipes, connections between them, processes, memory),
always executed; input: stdin, the command's other inherited fds and
connections accepted from untraced clients, executed by default.

--group ID prints one group: its resources, then each of its calls as show
prints it, with the calls it depends on and why (fd, state, position,
content, cwd, process, attrs, mapping).

--dot prints the call graph as a Graphviz digraph instead, one node per call
("5: openat(/etc/hosts)") clustered by group, one edge from each call to each
call it depends on; with --group only that group's calls and the calls they
depend on. Render it with 'dot -Tsvg'. --json prints one JSON object with the
groups, the resources and the edges (with --group: that group and its calls).

A trace cut short is read up to its last complete frame, with a warning.

Exit codes:
  0  printed
  1  the trace cannot be read: missing, not an envbisect trace, damaged, or of
     an architecture without a syscall table
  2  bad flags or arguments, such as a group the trace does not have`,
		Example: `  envbisect deps good.envb
  envbisect deps good.envb --group 4
  envbisect deps good.envb --dot | dot -Tsvg > deps.svg`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("deps needs exactly one trace file, got %d arguments (see 'envbisect deps --help')", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDeps(cmd.Context(), o, args[0], s)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.dot, "dot", false, "print the call graph as a Graphviz digraph")
	f.BoolVar(&o.json, "json", false, "print one JSON object")
	f.IntVar(&o.group, "group", 0, "print only group `ID` (see the ID column), with its calls")
	f.IntVarP(&o.stringSize, "string-limit", "s", render.DefaultStringSize, "with --group, show at most `SIZE` bytes of each string and buffer; 0: all")
	return cmd
}

// depsView is what the output formats need.
type depsView struct {
	g     *depgraph.Graph
	tab   *systable.Table
	main  map[uint32]uint32 // process -> its main thread, for [P] and [P:T]
	group *depgraph.Group   // --group, or nil
	size  int
}

// runDeps prints the dependency groups of the trace at path as o asks.
func runDeps(ctx context.Context, o depsOptions, path string, s streams) error {
	switch {
	case o.dot && o.json:
		return usageError("--dot and --json print different things: give one of them")
	case o.group < 0:
		return usageError("--group %d: group IDs are 1 or more (the ID column of 'envbisect deps')", o.group)
	case o.stringSize < 0:
		return usageError("-s %d: the string limit must be 0 (no limit) or more", o.stringSize)
	}
	t, err := readTrace(path, s)
	if err != nil {
		return withCode(exitError, err)
	}
	tab, err := systable.New(t.Header.Arch)
	if err != nil {
		return withCode(exitError, fmt.Errorf("trace %s: %w", path, err))
	}
	if err := ctx.Err(); err != nil {
		return withCode(exitError, errors.New("interrupted"))
	}
	g, err := depgraph.Build(tab, &t.Header, t.Events)
	if err != nil {
		return withCode(exitError, fmt.Errorf("trace %s: %w", path, err))
	}
	v := &depsView{g: g, tab: tab, main: mainThreads(t.Events), size: o.stringSize}
	if o.group != 0 {
		if v.group = g.Group(depgraph.GroupID(o.group)); v.group == nil {
			return usageError("--group %d: %s has %d groups (see 'envbisect deps %s')", o.group, path, len(g.Groups()), path)
		}
	}

	out := bufio.NewWriterSize(s.out, 64<<10)
	switch {
	case o.dot:
		err = v.writeDot(out)
	case o.json:
		err = v.writeJSON(out)
	case v.group != nil:
		err = v.writeGroup(out)
	default:
		err = v.writeGroups(out)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return withCode(exitError, fmt.Errorf("write: %w", err))
	}
	return nil
}

// mainThreads returns each process's main thread: the one it was spawned
// with, or that exec'd last.
func mainThreads(evs []trace.Event) map[uint32]uint32 {
	m := map[uint32]uint32{1: 1}
	for _, ev := range evs {
		if p := ev.Proc; p != nil && (p.Kind == trace.Spawn || p.Kind == trace.Exec) {
			m[p.Proc] = p.Thread
		}
	}
	return m
}

// who prints who made a call as show does: [P], or [P:T] off the main
// thread.
func (v *depsView) who(c *trace.Call) string {
	if m, ok := v.main[c.Proc]; !ok || m == c.Thread {
		return "[" + strconv.FormatUint(uint64(c.Proc), 10) + "]"
	}
	return fmt.Sprintf("[%d:%d]", c.Proc, c.Thread)
}

// writeGroups prints the table of groups.
func (v *depsView) writeGroups(w io.Writer) error {
	g := v.g
	fmt.Fprintf(w, "# %d calls, %d groups, %d resources, %d edges\n", len(g.Calls()), len(g.Groups()), len(g.Resources()), len(g.Edges()))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "ID\tKIND\tCLASS\tCALLS\tFIRST\tLAST\tNAME\n")
	for _, gr := range g.Groups() {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%d\t%s\n", gr.ID, gr.Kind, gr.Class, len(gr.Calls), gr.Calls[0], gr.Calls[len(gr.Calls)-1], gr.Name)
	}
	return tw.Flush()
}

// writeGroup prints one group with its calls and their dependencies.
func (v *depsView) writeGroup(w io.Writer) error {
	g, gr := v.g, v.group
	fmt.Fprintf(w, "# group %d: %s (%s), %d calls, #%d to #%d\n", gr.ID, gr.Title(), gr.Class, len(gr.Calls), gr.Calls[0], gr.Calls[len(gr.Calls)-1])
	for _, id := range gr.Resources {
		r := g.Resource(id)
		fmt.Fprintf(w, "# resource: %s %s (%s)\n", r.Kind, r.Name, r.Class)
	}
	for _, seq := range gr.Calls {
		c, _ := g.Call(seq)
		fmt.Fprintf(w, "#%d %s %s\n", seq, v.who(c), renderCallString(v, c))
		for _, e := range g.Deps(seq) {
			fmt.Fprintf(w, "    <- #%d %s", e.To, e.Why)
			if r := g.Resource(e.Resource); r != nil {
				fmt.Fprintf(w, " via %s", r.Name)
			}
			if to := g.GroupOf(e.To); to != nil && to.ID != gr.ID {
				fmt.Fprintf(w, " [group %d]", to.ID)
			}
			fmt.Fprintln(w)
		}
	}
	return nil // a write error shows at the flush
}

// renderCallString prints c as show does, cut to -s.
func renderCallString(v *depsView, c *trace.Call) string {
	return render.CallString(v.tab, c, v.size)
}
