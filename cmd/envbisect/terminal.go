package main

import (
	"os"

	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal (golang.org/x/term).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
