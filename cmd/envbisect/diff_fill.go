package main

import (
	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// diffFiller reads in, for diff, the bytes of the buffers its two traces
// were read without (readTraceLean): those of the pairs align compares
// with different addresses (align.Options.Fill), then those of every
// call the report prints (fillPrinted). The first error is kept.
type diffFiller struct {
	a, b *tracefile.Trace
	err  error
}

// fill reads in the bytes of c, a call of trace b when inB.
func (f *diffFiller) fill(inB bool, c *trace.Call) {
	t := f.a
	if inB {
		t = f.b
	}
	if err := t.FillData(c); err != nil && f.err == nil {
		f.err = err
	}
}

// fillPrinted reads in the calls the text and JSON reports print: each
// one-sided or differing step with context steps around it (as
// render's diff does), in every matched thread.
func (f *diffFiller) fillPrinted(res *align.Result, context int) {
	for _, td := range res.Threads {
		show := make([]bool, len(td.Steps))
		for i, s := range td.Steps {
			if s.Kind != align.Pair || td.Diffs[i] != nil {
				for k := max(0, i-context); k <= min(len(td.Steps)-1, i+context); k++ {
					show[k] = true
				}
			}
		}
		for i, s := range td.Steps {
			if !show[i] {
				continue
			}
			if s.Kind != align.OnlyB {
				f.fill(false, td.CallsA[s.I])
			}
			if s.Kind != align.OnlyA {
				f.fill(true, td.CallsB[s.J])
			}
		}
	}
}
