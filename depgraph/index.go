package depgraph

// Index returns where call seq is among the graph's calls, 0 to
// NumCalls()-1 in the order of the trace; false for a seq not in it. A
// trace's seqs need not start at 1 nor follow each other: an index does,
// for what holds something per call (replay's live calls, a bit each).
func (g *Graph) Index(seq uint64) (int, bool) {
	i, ok := g.pos(seq)
	return int(i), ok
}
