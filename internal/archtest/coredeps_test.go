package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/envbisect/envbisect"

// corePackages are the packages that must not link a tracing engine.
func corePackages() []string {
	return []string{"trace", "systable", "tracefile", "dnsmsg", "depgraph", "align", "render", "verdict", "bisect", "container", "pkgdb", "envobj", "envdiff"}
}

// forbidden reports whether a core package may not depend on path: the
// launcher, the engines and the libraries only they need.
func forbidden(path string) bool {
	for _, p := range []string{
		module + "/launch", module + "/ptrace", module + "/ebpfrec", module + "/bpf",
		module + "/record", module + "/replay", module + "/recorder",
		"github.com/elastic/go-seccomp-bpf", "github.com/cilium/ebpf",
	} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// listedPackage is the part of `go list -json` output the test reads.
type listedPackage struct {
	ImportPath string
	Imports    []string
}

// engineChains returns, for root, one import chain to each forbidden
// package it depends on ("verdict -> tracer -> github.com/elastic/..."),
// walking graph (import path -> imports) breadth first.
func engineChains(root string, graph map[string][]string) []string {
	parent := map[string]string{root: ""}
	queue := []string{root}
	var out []string
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if forbidden(p) {
			var chain []string
			for q := p; q != ""; q = parent[q] {
				chain = append([]string{strings.TrimPrefix(q, module+"/")}, chain...)
			}
			out = append(out, strings.Join(chain, " -> "))
			continue // one chain per forbidden package is enough
		}
		for _, imp := range graph[p] {
			if _, seen := parent[imp]; !seen {
				parent[imp] = p
				queue = append(queue, imp)
			}
		}
	}
	return out
}

// goTool returns the go command that builds this module.
func goTool() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		return "", errors.New("no go command on PATH or in GOROOT")
	}
	return p, nil
}

// listDeps runs `go list -deps -json` over pkgs and returns the import
// graph of everything they link.
func listDeps(t *testing.T, pkgs []string) map[string][]string {
	t.Helper()
	goCmd, err := goTool()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goCmd, append([]string{"list", "-deps", "-json=ImportPath,Imports"}, pkgs...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, stderr.String())
	}
	graph := make(map[string][]string)
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		graph[p.ImportPath] = p.Imports
	}
	return graph
}

// TestCoreImportsNoEngine checks that no core package links the
// launcher, an engine or their kernel libraries.
func TestCoreImportsNoEngine(t *testing.T) {
	var pkgs []string
	for _, p := range corePackages() {
		pkgs = append(pkgs, module+"/"+p)
	}
	graph := listDeps(t, pkgs)
	for _, p := range pkgs {
		if _, ok := graph[p]; !ok {
			t.Errorf("go list did not report %s: update corePackages if it moved", p)
		}
		for _, chain := range engineChains(p, graph) {
			t.Errorf("the core must not import a tracing engine: %s", chain)
		}
	}
}

// TestEngineChains checks the checker itself on a made-up graph: an
// import added to a core package is found, with its chain.
func TestEngineChains(t *testing.T) {
	graph := map[string][]string{
		module + "/bisect":  {module + "/verdict", module + "/trace"},
		module + "/verdict": {module + "/ptrace"},
		module + "/ptrace":  {"github.com/elastic/go-seccomp-bpf", module + "/launch"},
		module + "/trace":   {"time"},
	}
	got := engineChains(module+"/bisect", graph)
	want := []string{"bisect -> verdict -> ptrace"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("chains %q, want %q", got, want)
	}
	if got := engineChains(module+"/trace", graph); len(got) != 0 {
		t.Errorf("trace: chains %q, want none", got)
	}
}
