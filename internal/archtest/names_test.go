package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// exceptions are comparisons the check flags that are not about the
// syscall table, keyed by "slash/path.go: expression", with the reason
// they stay. None remain today; add one only with its reason.
var exceptions = map[string]string{}

// skipDirs are folders not walked: the table itself, and what is not Go
// source of the module.
var skipDirs = map[string]bool{"systable": true, ".git": true, "testdata": true, "node_modules": true}

// TestNoNameComparisonsOutsideSystable is the rule of
// docs/architecture.md: a per-syscall fact is a column of systable.
func TestNoNameComparisonsOutsideSystable(t *testing.T) {
	root := repoRoot(t)
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, v := range violations(fset, f) {
			key := rel + ": " + v.expr
			if _, ok := exceptions[key]; ok {
				continue
			}
			found = append(found, rel+":"+strconv.Itoa(v.line)+": "+v.expr+" compared to "+v.lit)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: a syscall, argument, flag or struct name is compared to a string literal; make it a column of systable", f)
	}
}

// TestCheckFindsNameComparisons keeps the check honest: each of these
// must be flagged, none of the legit ones.
func TestCheckFindsNameComparisons(t *testing.T) {
	src := `package p
func f() {
	_ = row.Name == "socket"
	_ = "fcntl" != x.row.Name
	_ = a.Struct == "fd_set"
	_ = fs.EnumName(v) == "EPOLL_CTL_ADD"
	_ = strings.Contains(arg.Name, "out")
	_ = strings.HasPrefix(a.Struct, "struct ")
	switch row.Name {
	case "munmap", "mremap":
	}
	_ = systable.OpenFlags.Has(v, "O_CREAT")
	// legit
	_ = strings.TrimPrefix(c.Name, "/")
	_ = f.Name == ""
	_ = mode == "auto"
	_ = strings.Contains(path, "out")
	switch kind {
	case "call":
	}
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := violations(fset, f)
	if len(got) != 9 {
		t.Errorf("found %d violations, want 9: %+v", len(got), got)
	}
}

// violation is one flagged comparison.
type violation struct {
	line      int
	expr, lit string
}

// violations returns the comparisons of a name field with a string
// literal in f.
func violations(fset *token.FileSet, f *ast.File) []violation {
	var out []violation
	add := func(n ast.Node, e ast.Expr, lit string) {
		out = append(out, violation{line: fset.Position(n.Pos()).Line, expr: exprString(e), lit: lit})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ {
				return true
			}
			if lit, ok := stringLit(n.Y); ok && isNameExpr(n.X) {
				add(n, n.X, lit)
			} else if lit, ok := stringLit(n.X); ok && isNameExpr(n.Y) {
				add(n, n.Y, lit)
			}
		case *ast.SwitchStmt:
			if n.Tag == nil || !isNameExpr(n.Tag) {
				return true
			}
			for _, s := range n.Body.List {
				for _, e := range s.(*ast.CaseClause).List {
					if lit, ok := stringLit(e); ok {
						add(e, n.Tag, lit)
					}
				}
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || len(n.Args) != 2 {
				return true
			}
			if sel.Sel.Name == "Has" { // FlagSet.Has(v, "O_CREAT"): a flag looked up by its name
				if lit, ok := stringLit(n.Args[1]); ok {
					add(n, n.Fun, lit)
				}
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok || pkg.Name != "strings" {
				return true
			}
			switch sel.Sel.Name {
			case "Contains", "HasPrefix", "HasSuffix", "EqualFold":
			default:
				return true
			}
			if lit, ok := stringLit(n.Args[1]); ok && isNameExpr(n.Args[0]) {
				add(n, n.Args[0], lit)
			}
		}
		return true
	})
	return out
}

// stringLit returns the value of a non-empty string literal.
func stringLit(e ast.Expr) (string, bool) {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(b.Value)
	return s, err == nil && s != ""
}

// isNameExpr reports whether e reads a name the syscall table defines:
// a Name or Struct field, or the result of EnumName.
func isNameExpr(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return e.Sel.Name == "Name" || e.Sel.Name == "Struct"
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok {
			return sel.Sel.Name == "EnumName"
		}
	case *ast.ParenExpr:
		return isNameExpr(e.X)
	}
	return false
}

// exprString prints a short expression: "row.Name", "x.row.Name",
// "fs.EnumName(...)".
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.CallExpr:
		return exprString(e.Fun) + "(...)"
	case *ast.ParenExpr:
		return exprString(e.X)
	case *ast.IndexExpr:
		return exprString(e.X) + "[...]"
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	}
	return "?"
}

// repoRoot returns the module's root: the nearest parent with go.mod.
func repoRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}
