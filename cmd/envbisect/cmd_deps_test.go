package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// depsTrace writes a small trace: process 1 reads /etc/hosts (calls 1 to
// 3), makes a pipe (4), writes to it (5) and asks for its pid (6).
func depsTrace(t *testing.T) string { return writeDepsTrace(t, false) }

// writeDepsTrace writes depsTrace; cut leaves out the end frame.
func writeDepsTrace(t *testing.T, cut bool) string {
	t.Helper()
	h := &trace.Header{Tool: "test", Arch: "amd64", Command: []string{"prog"}, Cwd: "/",
		Started: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Backend: trace.BackendPtraceSeccomp}
	pair := make([]byte, 8)
	binary.LittleEndian.PutUint32(pair, 3)
	binary.LittleEndian.PutUint32(pair[4:], 4)
	calls := []*trace.Call{
		{Nr: showNrOpenat, Args: [6]uint64{atFDCWDReg, 0x1000, unix.O_RDONLY}, Ret: 3, Path: "/etc/hosts",
			Mem: []trace.Mem{{Arg: 1, Dir: trace.In, Len: 11, Data: []byte("/etc/hosts\x00")}}},
		{Nr: showNrRead, Args: [6]uint64{3, 0x2000, 4096}, Ret: 6, Path: "/etc/hosts",
			Mem: []trace.Mem{{Arg: 1, Dir: trace.Out, Len: 6, Data: []byte("hello\n")}}},
		{Nr: 3 /* close */, Args: [6]uint64{3}, Path: "/etc/hosts"},
		{Nr: 293 /* pipe2 */, Args: [6]uint64{0x3000, 0}, Path: "pipe:[9]",
			Mem: []trace.Mem{{Arg: 0, Dir: trace.Out, Len: 8, Data: pair}}},
		{Nr: showNrWrite, Args: [6]uint64{4, 0x2000, 3}, Ret: 3, Path: "pipe:[9]",
			Mem: []trace.Mem{{Arg: 1, Dir: trace.In, Len: 3, Data: []byte("hi\n")}}},
		{Nr: 102 /* getuid */, Ret: 0},
	}
	var evs []trace.Event
	for i, c := range calls {
		c.Seq, c.TSeq, c.Proc, c.Thread = uint64(i+1), uint64(i+1), 1, 1
		evs = append(evs, trace.Event{Call: c})
	}
	path := filepath.Join(t.TempDir(), "good.envb")
	w, err := tracefile.Create(path, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteEvents(evs); err != nil {
		t.Fatal(err)
	}
	if cut {
		err = w.Abort()
	} else {
		err = w.Close(&trace.End{Finished: h.Started.Add(time.Second), Calls: uint64(len(calls)), Procs: 1, Threads: 1})
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDepsCutShort(t *testing.T) {
	path := writeDepsTrace(t, true)
	code, out, errs := runCLI("deps", path)
	if code != 0 || !strings.HasPrefix(errs, "warning: "+path) || !strings.Contains(out, "/etc/hosts") {
		t.Errorf("exit %d, stderr %q, output:\n%s", code, errs, out)
	}
}

func TestDepsText(t *testing.T) {
	path := depsTrace(t)
	code, out, errs := runCLI("deps", path)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	want := `# 6 calls, 3 groups, 6 resources, 3 edges
ID  KIND    CLASS        CALLS  FIRST  LAST  NAME
1   file    environment  3      1      3     /etc/hosts
2   pipe    internal     2      4      5     pipe:[9] (#4)
3   kernel  environment  1      6      6     getuid
`
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}

	code, out, errs = runCLI("deps", path, "--group", "1")
	if code != 0 || errs != "" {
		t.Fatalf("--group: exit %d, stderr %q", code, errs)
	}
	for _, s := range []string{
		"# group 1: file /etc/hosts (environment), 3 calls, #1 to #3",
		`#2 [1] read(3, "hello\n", 4096) = 6`,
		"    <- #1 fd,state,position via /etc/hosts (#1)",
		"#3 [1] close(3) = 0\n    <- #1 fd via /etc/hosts (#1)\n",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("--group 1 output lacks %q:\n%s", s, out)
		}
	}
}

func TestDepsDot(t *testing.T) {
	path := depsTrace(t)
	for _, args := range [][]string{{"deps", path, "--dot"}, {"deps", path, "--dot", "--group", "1"}} {
		code, out, errs := runCLI(args...)
		if code != 0 || errs != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
		}
		d, err := parseDot(out)
		if err != nil {
			t.Fatalf("%v: not a digraph: %v\n%s", args, err, out)
		}
		if !slices.Contains(d.edges, [2]string{"n2", "n1"}) || !slices.Contains(d.edges, [2]string{"n3", "n1"}) {
			t.Errorf("%v: edges %v lack n2 -> n1 and n3 -> n1", args, d.edges)
		}
		if d.labels["n2"] != "2: read(/etc/hosts)" {
			t.Errorf("%v: node n2 labelled %q", args, d.labels["n2"])
		}
		if !slices.Contains(d.clusters, "1: file /etc/hosts (environment)") {
			t.Errorf("%v: clusters %q lack the file's", args, d.clusters)
		}
		if len(args) > 3 && slices.ContainsFunc(d.edges, func(e [2]string) bool { return e[0] == "n5" }) {
			t.Errorf("--group 1 prints the edges of the pipe's write")
		}
	}
	if _, err := exec.LookPath("dot"); err == nil {
		code, out, _ := runCLI("deps", path, "--dot")
		if code != 0 {
			t.Fatal(code)
		}
		cmd := exec.Command("dot", "-Tcanon")
		cmd.Stdin = strings.NewReader(out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("graphviz refuses the output: %v\n%s", err, msg)
		}
	}
}

func TestDepsJSON(t *testing.T) {
	path := depsTrace(t)
	code, out, errs := runCLI("deps", path, "--json")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var got render.DepsJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Calls != 6 || len(got.Groups) != 3 {
		t.Fatalf("calls %d, groups %d; want 6 and 3", got.Calls, len(got.Groups))
	}
	g := got.Groups[0]
	if g.Kind != depgraph.GroupFile || g.Name != "/etc/hosts" || g.Class != depgraph.Environment || !slices.Equal(g.Seqs, []uint64{1, 2, 3}) {
		t.Errorf("group 1: %+v", g)
	}
	if !slices.ContainsFunc(got.Edges, func(e render.DepsEdgeJSON) bool { return e.From == 2 && e.To == 1 && slices.Contains(e.Why, "fd") }) {
		t.Errorf("edges %+v lack 2 -> 1 by fd", got.Edges)
	}
	if !strings.Contains(out, `"class":"internal"`) {
		t.Errorf("classes are not printed by name:\n%s", out)
	}

	code, out, _ = runCLI("deps", path, "--json", "--group", "2")
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("--group 2: exit %d, %v", code, err)
	}
	if len(got.Groups) != 1 || len(got.Groups[0].Calls) != 2 || got.Groups[0].Calls[1].Call != `[1] write(4, "hi\n", 3) = 3` {
		t.Errorf("--group 2: %+v", got.Groups)
	}
}

func TestDepsErrors(t *testing.T) {
	dir := t.TempDir()
	good := depsTrace(t)
	corrupt := filepath.Join(dir, "corrupt.envb")
	if err := os.WriteFile(corrupt, []byte("not a trace at all, just text\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		args    []string
		code    int
		wantErr string
	}{
		{"missing", []string{"deps", filepath.Join(dir, "nope.envb")}, 1, "nope.envb"},
		{"corrupt", []string{"deps", corrupt}, 1, "corrupt.envb"},
		{"no trace", []string{"deps"}, 2, "exactly one trace file"},
		{"two traces", []string{"deps", good, good}, 2, "exactly one trace file"},
		{"no such group", []string{"deps", good, "--group", "99"}, 2, "has 3 groups"},
		{"negative group", []string{"deps", good, "--group", "-1"}, 2, "--group -1"},
		{"dot and json", []string{"deps", good, "--dot", "--json"}, 2, "give one of them"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.wantErr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errs, tc.code, tc.wantErr)
			}
			if code != 0 && out != "" {
				t.Errorf("printed %q on error", out)
			}
		})
	}
}

// TestDepsRecorded records a shell that makes a directory, writes a file
// in it and reads the file back in another process, and checks the edges
// the tracker finds between the real calls.
func TestDepsRecorded(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace)
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.envb")
	script := fmt.Sprintf("cd %s && mkdir -p d/x && echo hi > d/x/f && cat d/x/f > copy", dir)
	if code, _, errs := runCLI("record", "-q", "-o", tr, "--", "sh", "-c", script); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errs)
	}
	if code, out, errs := runCLI("deps", tr); code != 0 || !strings.Contains(out, "directory  environment") {
		t.Fatalf("deps: exit %d, stderr %q, output:\n%s", code, errs, out)
	}

	tf, err := tracefile.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := systable.New(tf.Header.Arch)
	if err != nil {
		t.Fatal(err)
	}
	g, err := depgraph.Build(tab, &tf.Header, tf.Events)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "d/x/f")
	// find returns the first call named name on path p with a result.
	find := func(name, p string, readOnly bool) *trace.Call {
		for _, c := range g.Calls() {
			row := tab.ByNr(int(c.Nr))
			if row.Name == name && c.Path == p && c.Ret >= 0 && (!readOnly || c.Args[2]&unix.O_ACCMODE == unix.O_RDONLY) {
				return c
			}
		}
		t.Fatalf("no successful %s of %s in the trace", name, p)
		return nil
	}
	mkdir := find("mkdir", filepath.Join(dir, "d/x"), false)
	write := find("write", file, false)
	open := find("openat", file, true)
	deps := g.DependsOn(open.Seq)
	for _, want := range []*trace.Call{mkdir, write} {
		if !slices.Contains(deps, want.Seq) {
			t.Errorf("cat's open of d/x/f (#%d) does not depend on #%d %s", open.Seq, want.Seq, tab.ByNr(int(want.Nr)).Name)
		}
	}
	if gr := g.GroupOf(open.Seq); gr.Kind != depgraph.GroupFile || gr.Name != file || g.GroupOf(write.Seq) != gr {
		t.Errorf("open and write of d/x/f in groups %s and %s", gr.Title(), g.GroupOf(write.Seq).Title())
	}
	// Replaying up to cat's open, its read of the file executes: the open
	// runs, and so do the write and the mkdir it depends on.
	p := g.Closure(func(seq uint64) bool { return seq <= open.Seq })
	for _, c := range []*trace.Call{open, write, mkdir} {
		if a := p.Action(c.Seq); a != depgraph.ExecuteThenOverwrite {
			t.Errorf("#%d %s: %s, want execute+overwrite", c.Seq, tab.ByNr(int(c.Nr)).Name, a)
		}
	}
}

// dotGraph is what parseDot understood of a digraph.
type dotGraph struct {
	edges    [][2]string
	labels   map[string]string // node -> label
	clusters []string          // cluster labels
}

// parseDot parses the subset of the DOT language deps writes (digraph,
// subgraph, attribute statements, node and edge statements, quoted
// strings), failing on anything else.
func parseDot(src string) (*dotGraph, error) {
	toks, err := dotTokens(src)
	if err != nil {
		return nil, err
	}
	d := &dotGraph{labels: map[string]string{}}
	i := 0
	next := func() string {
		if i >= len(toks) {
			return ""
		}
		i++
		return toks[i-1]
	}
	expect := func(s string) error {
		if got := next(); got != s {
			return fmt.Errorf("token %d: %q, want %q", i, got, s)
		}
		return nil
	}
	attrs := func() (map[string]string, error) {
		m := map[string]string{}
		if i >= len(toks) || toks[i] != "[" {
			return m, nil
		}
		next()
		for toks[i] != "]" {
			k := next()
			if err := expect("="); err != nil {
				return nil, err
			}
			m[k] = unquote(next())
			if toks[i] == "," {
				next()
			}
		}
		next()
		return m, nil
	}
	var stmts func(cluster bool) error
	stmts = func(cluster bool) error {
		if err := expect("{"); err != nil {
			return err
		}
		for i < len(toks) && toks[i] != "}" {
			switch t := next(); {
			case t == "graph" || t == "node" || t == "edge":
				if _, err := attrs(); err != nil {
					return err
				}
			case t == "subgraph":
				next() // its name
				if err := stmts(true); err != nil {
					return err
				}
			case i < len(toks) && toks[i] == "=":
				next()
				if v := unquote(next()); cluster && t == "label" {
					d.clusters = append(d.clusters, v)
				}
			case i < len(toks) && toks[i] == "->":
				next()
				to := next()
				if _, err := attrs(); err != nil {
					return err
				}
				d.edges = append(d.edges, [2]string{t, to})
			default:
				a, err := attrs()
				if err != nil {
					return err
				}
				d.labels[t] = a["label"]
			}
			if i < len(toks) && toks[i] == ";" {
				next()
			}
		}
		return expect("}")
	}
	if err := expect("digraph"); err != nil {
		return nil, err
	}
	if toks[i] != "{" {
		next()
	}
	if err := stmts(false); err != nil {
		return nil, err
	}
	if i != len(toks) {
		return nil, fmt.Errorf("%d tokens after the graph", len(toks)-i)
	}
	return d, nil
}

// dotTokens splits DOT source into identifiers, quoted strings (kept
// with their quotes), "->" and single punctuation characters.
func dotTokens(src string) ([]string, error) {
	var toks []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case unicode.IsSpace(rune(c)):
			i++
		case c == '"':
			j := i + 1
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			if j >= len(src) {
				return nil, fmt.Errorf("unterminated string at %d", i)
			}
			toks = append(toks, src[i:j+1])
			i = j + 1
		case strings.HasPrefix(src[i:], "->"):
			toks = append(toks, "->")
			i += 2
		case strings.ContainsRune("{}[];,=", rune(c)):
			toks = append(toks, string(c))
			i++
		case c == '_' || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)):
			j := i
			for j < len(src) && (src[j] == '_' || unicode.IsLetter(rune(src[j])) || unicode.IsDigit(rune(src[j]))) {
				j++
			}
			toks = append(toks, src[i:j])
			i = j
		default:
			return nil, fmt.Errorf("unexpected %q at %d", c, i)
		}
	}
	return toks, nil
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' {
		s = strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n").Replace(s[1 : len(s)-1])
	}
	return s
}
