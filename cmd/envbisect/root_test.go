package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestRootHelpListsCommands: 'envbisect --help' lists every command,
// locate included, and --version prints the version text.
func TestRootHelpListsCommands(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--help"}, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Fatalf("envbisect --help: exit %d, %s", code, errb.String())
	}
	help := out.String()
	root := newRootCommand(streams{})
	for _, c := range root.Commands() {
		if c.Hidden {
			t.Errorf("command %s is hidden from --help", c.Name())
		}
		if !strings.Contains(help, "\n  "+c.Name()+" ") {
			t.Errorf("--help does not list %s:\n%s", c.Name(), help)
		}
	}
	if !strings.Contains(help, "\n  locate ") {
		t.Errorf("--help does not list locate:\n%s", help)
	}
	out.Reset()
	if code := run([]string{"--version"}, strings.NewReader(""), &out, &errb); code != exitOK || !strings.HasPrefix(out.String(), "envbisect ") ||
		!strings.Contains(out.String(), "\nbuilt with go") {
		t.Errorf("envbisect --version: exit %d, %q", code, out.String())
	}
}
