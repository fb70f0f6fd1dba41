package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/envbisect/envbisect/depgraph"
)

// DepsJSON is the JSON output of deps: one object. The Deps*JSON types
// are its parts.
type DepsJSON struct {
	Calls     int                `json:"calls"`
	Groups    []DepsGroupJSON    `json:"groups"`
	Resources []DepsResourceJSON `json:"resources"`
	Edges     []DepsEdgeJSON     `json:"edges"`
}

// DepsGroupJSON is one group of linked calls.
type DepsGroupJSON struct {
	ID        depgraph.GroupID      `json:"id"`
	Kind      depgraph.GroupKind    `json:"kind"`
	Name      string                `json:"name"`
	Title     string                `json:"title"`
	Class     depgraph.Class        `json:"class"`
	First     uint64                `json:"first"`
	Last      uint64                `json:"last"`
	Seqs      []uint64              `json:"seqs"`
	Resources []depgraph.ResourceID `json:"resources"`
	Calls     []DepsCallJSON        `json:"calls,omitempty"` // --group only
}

// DepsCallJSON is one call of a group, printed with --group.
type DepsCallJSON struct {
	Seq    uint64 `json:"seq"`
	Proc   uint32 `json:"proc"`
	Thread uint32 `json:"thread"`
	Call   string `json:"call"`
}

// DepsResourceJSON is one resource the calls touch.
type DepsResourceJSON struct {
	ID      depgraph.ResourceID   `json:"id"`
	Kind    depgraph.ResourceKind `json:"kind"`
	Name    string                `json:"name"`
	Class   depgraph.Class        `json:"class"`
	Created uint64                `json:"created,omitempty"`
	Path    string                `json:"path,omitempty"`
	Local   string                `json:"local,omitempty"`
	Peer    string                `json:"peer,omitempty"`
	Group   depgraph.GroupID      `json:"group,omitempty"`
}

// DepsEdgeJSON is one dependency: call From depends on call To.
type DepsEdgeJSON struct {
	From     uint64              `json:"from"`
	To       uint64              `json:"to"`
	Why      []string            `json:"why"`
	Resource depgraph.ResourceID `json:"resource,omitempty"`
	// ContentOnly: From needs only the content of the file To opened
	// (depgraph.Edge.ContentOnly): a replayed To that hands out the
	// good file serves it.
	ContentOnly bool `json:"content_only,omitempty"`
}

// WriteJSON prints the groups, resources and edges; with --group only
// that group, its resources, its calls and the edges from them.
func (v *Deps) WriteJSON(w io.Writer) error {
	g := v.g
	out := DepsJSON{Calls: len(g.Calls()), Groups: []DepsGroupJSON{}, Resources: []DepsResourceJSON{}, Edges: []DepsEdgeJSON{}}
	groups := g.Groups()
	if v.group != nil {
		groups = []*depgraph.Group{v.group}
	}
	for _, gr := range groups {
		gj := DepsGroupJSON{ID: gr.ID, Kind: gr.Kind, Name: gr.Name, Title: gr.Title(), Class: gr.Class,
			First: gr.Calls[0], Last: gr.Calls[len(gr.Calls)-1], Seqs: gr.Calls, Resources: gr.Resources}
		if gj.Resources == nil {
			gj.Resources = []depgraph.ResourceID{} // a group of the kernel's answers or of a process
		}
		if v.group != nil {
			for _, seq := range gr.Calls {
				c, _ := g.Call(seq)
				gj.Calls = append(gj.Calls, DepsCallJSON{Seq: seq, Proc: c.Proc, Thread: c.Thread, Call: v.callLine(seq)})
			}
		}
		out.Groups = append(out.Groups, gj)
	}
	for _, r := range g.Resources() {
		if v.group != nil && r.Group != v.group.ID {
			continue
		}
		out.Resources = append(out.Resources, DepsResourceJSON{ID: r.ID, Kind: r.Kind, Name: r.Name, Class: r.Class,
			Created: r.Created, Path: r.Path, Local: r.Local, Peer: r.Peer, Group: r.Group})
	}
	for _, e := range v.edges() {
		out.Edges = append(out.Edges, DepsEdgeJSON{From: e.From, To: e.To, Why: e.Why.Names(), Resource: e.Resource, ContentOnly: e.ContentOnly})
	}
	enc := json.NewEncoder(w)
	return enc.Encode(out)
}

// edges returns the edges to print: all, or those from --group's calls.
func (v *Deps) edges() []depgraph.Edge {
	if v.group == nil {
		return v.g.Edges()
	}
	var out []depgraph.Edge
	for _, seq := range v.group.Calls {
		out = append(out, v.g.Deps(seq)...)
	}
	return out
}

// callLine is the call seq as the JSON output of one group lists it:
// who made it, then the call as show prints it.
func (v *Deps) callLine(seq uint64) string {
	c, _ := v.g.Call(seq)
	return v.who(c) + " " + CallString(v.tab, c, v.size)
}

// WriteDot prints the call graph as a Graphviz digraph: a node per call,
// in a cluster per group, an edge from each call to each call it depends
// on. Edges to the call that made the thread are dashed and grey: every
// call has one.
func (v *Deps) WriteDot(w io.Writer) error {
	g := v.g
	edges := v.edges()
	nodes := map[uint64]bool{}
	for _, e := range edges {
		nodes[e.From], nodes[e.To] = true, true
	}
	groups := g.Groups()
	if v.group != nil {
		for _, seq := range v.group.Calls {
			nodes[seq] = true
		}
	}
	fmt.Fprintln(w, "digraph envbisect {")
	fmt.Fprintln(w, "\tgraph [fontname=\"monospace\"];")
	fmt.Fprintln(w, "\tnode [shape=box, fontname=\"monospace\", fontsize=10];")
	fmt.Fprintln(w, "\tedge [fontname=\"monospace\", fontsize=8];")
	for _, gr := range groups {
		var members []uint64
		for _, seq := range gr.Calls {
			if v.group == nil || nodes[seq] {
				members = append(members, seq)
			}
		}
		if len(members) == 0 {
			continue
		}
		fmt.Fprintf(w, "\tsubgraph cluster_%d {\n", gr.ID)
		fmt.Fprintf(w, "\t\tlabel=%s;\n", dotQuote(fmt.Sprintf("%d: %s (%s)", gr.ID, gr.Title(), gr.Class)))
		for _, seq := range members {
			fmt.Fprintf(w, "\t\tn%d [label=%s];\n", seq, dotQuote(v.nodeLabel(seq)))
		}
		fmt.Fprintln(w, "\t}")
	}
	for _, e := range edges {
		style := ""
		if e.Why == depgraph.ByProcess {
			style = ", style=dashed, color=gray"
		}
		fmt.Fprintf(w, "\tn%d -> n%d [label=%s%s];\n", e.From, e.To, dotQuote(e.Why.String()), style)
	}
	_, err := fmt.Fprintln(w, "}")
	return err
}

// nodeLabel is "seq: syscall(path)".
func (v *Deps) nodeLabel(seq uint64) string {
	c, _ := v.g.Call(seq)
	return fmt.Sprintf("%d: %s(%s)", seq, v.tab.ByNr(int(c.Nr)).Name, c.Path)
}

// dotQuote makes s a DOT double-quoted string.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
