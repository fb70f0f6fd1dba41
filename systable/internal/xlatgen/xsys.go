package main

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
)

// xsysNames returns the names of the constants golang.org/x/sys/unix
// defines for linux/amd64, from the module's pinned version.
func xsysNames() (map[string]bool, error) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "golang.org/x/sys/unix").Output()
	if err != nil {
		return nil, fmt.Errorf("find golang.org/x/sys/unix: %w", err)
	}
	dir := strings.TrimSpace(string(out))
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = "linux", "amd64", false
	pkg, err := ctx.ImportDir(dir, 0)
	if err != nil {
		return nil, fmt.Errorf("list %s for linux/amd64: %w", dir, err)
	}
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range pkg.GoFiles {
		file, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					names[n.Name] = true
				}
			}
		}
	}
	return names, nil
}
