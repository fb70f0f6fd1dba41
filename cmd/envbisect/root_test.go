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

// TestHelpDescribesLocate: the top-level help shows locate's use (record
// then locate, in a container, with a check) and its exit statuses;
// locate's help describes the search as it is (objects first, the
// recorded calls as the fallback, --materialize=false) and every exit
// status, Ctrl-C included, not the older prefix search.
func TestHelpDescribesLocate(t *testing.T) {
	help := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(args, strings.NewReader(""), &out, &errb); code != exitOK {
			t.Fatalf("envbisect %v: exit %d, %s", args, code, errb.String())
		}
		return strings.Join(strings.Fields(out.String()), " ") // across wrapped lines
	}
	root := help("--help")
	for _, want := range []string{"envbisect record -o good.envb -- make test", "envbisect locate good.envb -- make test",
		"envbisect locate --container ci-runner good.envb", "--check 'curl -sf", "Exit status of locate: 0 located, 3 not located"} {
		if !strings.Contains(root, want) {
			t.Errorf("envbisect --help lacks %q:\n%s", want, root)
		}
	}
	locate := help("locate", "--help")
	for _, want := range []string{"Objects first.", "runs CMD live, untraced", "a fix validated by a run",
		"Recorded calls when objects cannot tell.", "--materialize=false searches the recorded calls only",
		"looks for at most 8 causes", "0 located", "3 not located", "(replay-still-fails)", "(not-repeatable)",
		"interrupted by Ctrl-C (SIGINT) or SIGTERM", "the --report file could not be written at the end (the report is on stdout)",
		"a --report or --logs path that cannot take its file (checked before the trace is read)"} {
		if !strings.Contains(locate, want) {
			t.Errorf("envbisect locate --help lacks %q:\n%s", want, locate)
		}
	}
	for _, old := range []string{"first K calls", "binary-search for the first recorded call", "prefix"} {
		if strings.Contains(locate, old) {
			t.Errorf("envbisect locate --help still says %q (the older prefix search)", old)
		}
	}
}
