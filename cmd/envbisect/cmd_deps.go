package main

import (
	"bufio"
	"context"
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
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

// runDeps prints the dependency groups of the trace at path as o asks.
// Its memory holds the graph, not the calls (streamDepsGraph).
func runDeps(ctx context.Context, o depsOptions, path string, s streams) error {
	switch {
	case o.dot && o.json:
		return usageError("--dot and --json print different things: give one of them")
	case o.group < 0:
		return usageError("--group %d: group IDs are 1 or more (the ID column of 'envbisect deps')", o.group)
	case o.stringSize < 0:
		return usageError("-s %d: the string limit must be 0 (no limit) or more", o.stringSize)
	}
	// The graph keeps no call: the table needs only the groups and the
	// count of edges, JSON the edges too, dot also each call's syscall
	// and path; --group reads its calls again.
	defer debug.SetGCPercent(debug.SetGCPercent(batchGCPercent))
	bo := depgraph.BuildOptions{CountEdges: !o.dot && !o.json && o.group == 0, Paths: o.dot && o.group == 0}
	t, err := streamDepsGraph(ctx, path, s, bo)
	if err != nil {
		return withCode(exitError, err)
	}
	g := t.g
	var group *depgraph.Group
	var calls map[uint64]*trace.Call
	if o.group != 0 {
		if group = g.Group(depgraph.GroupID(o.group)); group == nil {
			return usageError("--group %d: %s has %d groups (see 'envbisect deps %s')", o.group, path, len(g.Groups()), path)
		}
		if calls, err = t.calls(ctx, s, groupCallsPrinted(g, group, o.dot)); err != nil {
			return withCode(exitError, err)
		}
	}
	v := render.NewDeps(g, t.tab, render.DepsOptions{Group: group, Size: o.stringSize, Main: t.main,
		Calls: func(seq uint64) (*trace.Call, bool) { c, ok := calls[seq]; return c, ok }})

	out := bufio.NewWriterSize(s.out, 64<<10)
	switch {
	case o.dot:
		err = v.WriteDot(out)
	case o.json:
		err = v.WriteJSON(out)
	case group != nil:
		err = v.WriteGroup(out)
	default:
		err = v.WriteGroups(out)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return withCode(exitError, fmt.Errorf("write: %w", err))
	}
	return nil
}

// groupCallsPrinted are the calls deps prints of group gr: its own and,
// in dot, the calls they depend on (nodes of their edges).
func groupCallsPrinted(g *depgraph.Graph, gr *depgraph.Group, dot bool) map[uint64]bool {
	want := make(map[uint64]bool, len(gr.Calls))
	for _, seq := range gr.Calls {
		want[seq] = true
		if dot {
			for _, e := range g.Deps(seq) {
				want[e.To] = true
			}
		}
	}
	return want
}
