package render

import (
	"encoding/json"
	"fmt"
	"io"
	"iter"
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
// that group, its resources, its calls and the edges from them. It
// prints DepsJSON item by item, so that memory does not hold the whole
// output: the bytes are those of encoding/json's Encoder.
func (v *Deps) WriteJSON(w io.Writer) error {
	g := v.g
	l := &jsonList{w: w}
	fmt.Fprintf(w, `{"calls":%d,"groups":[`, g.NumCalls())
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
				c, ok := v.calls(seq)
				if !ok {
					return fmt.Errorf("call #%d of group %d is not in the trace", seq, gr.ID)
				}
				gj.Calls = append(gj.Calls, DepsCallJSON{Seq: seq, Proc: c.Proc, Thread: c.Thread, Call: v.who(c) + " " + CallString(v.tab, c, v.size)})
			}
		}
		l.item(gj)
	}
	l.next(`],"resources":[`)
	for _, r := range g.Resources() {
		if v.group != nil && r.Group != v.group.ID {
			continue
		}
		l.item(DepsResourceJSON{ID: r.ID, Kind: r.Kind, Name: r.Name(), Class: r.Class,
			Created: r.Created, Path: r.Path, Local: r.Local(), Peer: r.Peer(), Group: r.Group})
	}
	l.next(`],"edges":[`)
	for e := range v.edges() {
		l.item(DepsEdgeJSON{From: e.From, To: e.To, Why: e.Why.Names(), Resource: e.Resource, ContentOnly: e.ContentOnly})
	}
	l.next("]}\n")
	return l.err
}

// jsonList writes the items of JSON arrays, comma-separated; the first
// error is kept.
type jsonList struct {
	w     io.Writer
	items int // in the array being written
	err   error
}

// item writes x as the array's next item.
func (l *jsonList) item(x any) {
	b, err := json.Marshal(x)
	if l.err == nil && err != nil {
		l.err = err
	}
	if l.items > 0 {
		b = append([]byte{','}, b...)
	}
	l.items++
	if _, err := l.w.Write(b); l.err == nil && err != nil {
		l.err = err
	}
}

// next ends the array with s, which starts the next one, if any.
func (l *jsonList) next(s string) {
	l.items = 0
	if _, err := io.WriteString(l.w, s); l.err == nil && err != nil {
		l.err = err
	}
}

// edges returns the edges to print: all, or those from --group's calls.
func (v *Deps) edges() iter.Seq[depgraph.Edge] {
	if v.group == nil {
		return v.g.AllEdges()
	}
	return func(yield func(depgraph.Edge) bool) {
		for _, seq := range v.group.Calls {
			for _, e := range v.g.Deps(seq) {
				if !yield(e) {
					return
				}
			}
		}
	}
}

// WriteDot prints the call graph as a Graphviz digraph: a node per call,
// in a cluster per group, an edge from each call to each call it depends
// on. Edges to the call that made the thread are dashed and grey: every
// call has one.
func (v *Deps) WriteDot(w io.Writer) error {
	g := v.g
	edges := v.edges()
	var nodes map[uint64]bool // with --group: its calls and the calls they depend on
	if v.group != nil {
		nodes = map[uint64]bool{}
		for e := range edges {
			nodes[e.From], nodes[e.To] = true, true
		}
		for _, seq := range v.group.Calls {
			nodes[seq] = true
		}
	}
	groups := g.Groups()
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
			label, err := v.nodeLabel(seq)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "\t\tn%d [label=%s];\n", seq, dotQuote(label))
		}
		fmt.Fprintln(w, "\t}")
	}
	for e := range edges {
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
func (v *Deps) nodeLabel(seq uint64) (string, error) {
	if c, ok := v.calls(seq); ok {
		return fmt.Sprintf("%d: %s(%s)", seq, v.tab.ByNr(int(c.Nr)).Name, c.Path), nil
	}
	// A lean graph built with its calls' paths (depgraph.BuildOptions.Paths).
	nr, ok := v.g.Syscall(seq)
	path, kept := v.g.Path(seq)
	if !ok || !kept {
		return "", fmt.Errorf("call #%d is not in the trace", seq)
	}
	return fmt.Sprintf("%d: %s(%s)", seq, v.tab.ByNr(nr).Name, path), nil
}

// dotQuote makes s a DOT double-quoted string.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
