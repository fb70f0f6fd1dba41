package envdiff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// WalkDump is what a walk of tr's calls records of each path, with each
// view's good state folded, as text: streamed, as an Inspector given the
// events walks them (the file objects observed at the end); otherwise as
// Inspect does (each looked up as a call names it). The two must agree.
func WalkDump(tr *tracefile.Trace, table *systable.Table, streamed bool) string {
	file := tr.File
	if streamed {
		file = nil
	}
	w := newWalker(table, tr.Header.Arch, file)
	for i := range tr.Events {
		w.add(&tr.Events[i])
	}
	w.finish(tr.Files)
	paths := make([]string, 0, len(w.recs))
	for p := range w.recs {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var b strings.Builder
	for _, p := range paths {
		r := w.recs[p]
		fmt.Fprintf(&b, "%s first=%d named=%v entriesChanged=%v changed=%d created=%d leadsTo=%q listed=%v at %d %q\n",
			p, r.first, r.named, r.entriesChanged, r.changed, r.created, r.leadsTo, r.listed, r.listedAt, r.entries)
		fmt.Fprintf(&b, "  self   %s\n  follow %s\n  both   %s\n", dumpGood(fold(r.obs[viewSelf])),
			dumpGood(fold(r.obs[viewFollow])), dumpGood(fold(r.obs[viewSelf], r.obs[viewFollow])))
	}
	return b.String()
}

// dumpGood is g as text, its file object and package by name.
func dumpGood(g good) string {
	id, pkg := uint32(0), trace.Package{}
	if g.file != nil {
		id = g.file.ID
	}
	if g.pkg != nil {
		pkg = *g.pkg
	}
	return fmt.Sprintf("%+v size=%v file=%d pkg=%+v", g.st, g.hasSize, id, pkg)
}
