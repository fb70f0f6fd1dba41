package main

import (
	"fmt"
	"io"
	"strings"
)

// footnotes collects the notes a table's cells refer to, numbered in the
// order they are first referred to; the same text gets the same number.
type footnotes []string

// ref returns the marker of note s, "[2]", adding s if it is new.
func (f *footnotes) ref(s string) string {
	for i, n := range *f {
		if n == s {
			return fmt.Sprintf("[%d]", i+1)
		}
	}
	*f = append(*f, s)
	return fmt.Sprintf("[%d]", len(*f))
}

// write prints the notes under a table, one per line.
func (f footnotes) write(w io.Writer) {
	if len(f) == 0 {
		return
	}
	fmt.Fprintln(w)
	for i, n := range f {
		fmt.Fprintf(w, "[%d] %s  \n", i+1, strings.ReplaceAll(n, "\n", " "))
	}
}
