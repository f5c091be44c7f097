package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// root is the module's root, two directories up.
const root = "../.."

// inMotion lists the packages, by their directory in the module, whose undocumented names this
// test lets pass while a move reshapes them in a branch of its own, each with that move; empty
// when none is under way. An entry that excuses no name fails the test, so that the list only
// shrinks.
var inMotion = map[string]string{}

// TestExportedNamesDocumented fails naming each exported name of a non-main package that
// has no doc comment: a top-level type, function, constant or variable, and a method of an
// exported type. A name in a group with a doc comment is documented by it, as is a constant or
// variable with a comment at the end of its line inside a group (go doc shows both).
func TestExportedNamesDocumented(t *testing.T) {
	missing, checked, err := undocumented(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d exported names checked", checked)
	if checked < 1000 {
		t.Fatalf("%d exported names checked: the walk of the module missed most of it", checked)
	}
	excused := map[string]int{}
	for _, m := range missing {
		if _, ok := inMotion[m.pkg]; ok {
			excused[m.pkg]++
			continue
		}
		t.Errorf("%s: %s has no doc comment", m.pos, m.name)
	}
	for pkg := range inMotion {
		if excused[pkg] == 0 {
			t.Errorf("inMotion excuses %s, whose exported names all have doc comments: remove it from the list", pkg)
		}
	}
}

// TestUndocumentedFinds checks the finder on a package written for it: each kind of name,
// documented and not.
func TestUndocumentedFinds(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example\n")
	write("p/p.go", `// Package p is a test's.
package p

// Documented is.
type Documented struct{}

type Bare struct{}

type hidden struct{}

// Method is.
func (Documented) Method() {}

func (*Documented) BareMethod() {}

func (hidden) Exported() {}

func (Documented) unexported() {}

func BareFunc() {}

// Func is.
func Func() {}

// Group is documented, and so are its names.
const (
	A = 1
	B = 2
)

var (
	C = 3 // C is documented at the end of its line.
	D = 4
	e = 5
)

var E, F = 6, 7

// G is.
var G = 8

type (
	// H is.
	H int
	I int
)

// Types of a documented group are documented by it.
type (
	J int
	K int
)
`)
	write("p/p_test.go", "package p\n\nfunc TestNotChecked() {}\n")
	write("cmd/main.go", "package main\n\nfunc Exported() {}\n\nfunc main() {}\n")
	write("p/testdata/x.go", "package x\n\nfunc NotChecked() {}\n")
	missing, checked, err := undocumented(dir)
	if err != nil {
		t.Fatal(err)
	}
	if checked != 17 {
		t.Errorf("%d exported names checked, want 17", checked)
	}
	var got []string
	for _, m := range missing {
		got = append(got, m.pkg+" "+m.name)
	}
	want := []string{"p Bare", "p Documented.BareMethod", "p BareFunc", "p D", "p E", "p F", "p I"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// name is an exported name without a doc comment.
type name struct {
	pkg  string // its package's directory, relative to the module's root, slash-separated
	name string // as go doc names it: T, F, T.M
	pos  string // its file and line, relative to the module's root
}

// undocumented walks the module at root and returns its exported names without a doc
// comment, in the order of the walk, and how many exported names it checked. It reads every
// non-test Go file whatever its build constraints (a Windows file's names are documented
// too), and skips package main, whose names no one imports, testdata and directories whose
// names begin with "." or "_", as the go command does.
func undocumented(root string) (missing []name, checked int, err error) {
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		base := d.Name()
		if d.IsDir() {
			if p != root && (base == "testdata" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(base, ".go") || strings.HasSuffix(base, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" || ast.IsGenerated(f) {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		pkg := path.Dir(filepath.ToSlash(rel))
		report := func(at token.Pos, n string, documented bool) {
			checked++
			if documented {
				return
			}
			pos := fset.Position(at)
			missing = append(missing, name{pkg: pkg, name: n, pos: fmt.Sprintf("%s:%d", filepath.ToSlash(rel), pos.Line)})
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if !decl.Name.IsExported() {
					continue
				}
				if decl.Recv == nil {
					report(decl.Pos(), decl.Name.Name, decl.Doc != nil)
				} else if recv := receiverType(decl.Recv.List[0].Type); ast.IsExported(recv) {
					report(decl.Pos(), recv+"."+decl.Name.Name, decl.Doc != nil)
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						if spec.Name.IsExported() {
							report(spec.Pos(), spec.Name.Name, spec.Doc != nil || decl.Doc != nil)
						}
					case *ast.ValueSpec:
						grouped := decl.Lparen.IsValid()
						documented := spec.Doc != nil || decl.Doc != nil || grouped && spec.Comment != nil
						for _, n := range spec.Names {
							if n.IsExported() {
								report(n.Pos(), n.Name, documented)
							}
						}
					}
				}
			}
		}
		return nil
	})
	return missing, checked, err
}

// receiverType is the name of a method's receiver type: T of T, *T, T[K] and *T[K].
func receiverType(x ast.Expr) string {
	for {
		switch e := x.(type) {
		case *ast.StarExpr:
			x = e.X
		case *ast.IndexExpr:
			x = e.X
		case *ast.IndexListExpr:
			x = e.X
		case *ast.ParenExpr:
			x = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}
