package deptest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the import rules of docs/architecture.md from Rules")

// root is the module's root, two directories up.
const root = "../.."

// load is the module's import graph as "go list -deps" gives it, with each file's imports
// for the packages that a rule with Except looks at.
func load(t *testing.T) []Package {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		// go test runs with it; a rule that went unchecked would pass in silence.
		t.Fatal("the import rules need the go command on PATH (go list): put Go's bin directory on PATH")
	}
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Standard,Imports,Deps,Dir,GoFiles", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var graph []Package
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			Package
			Dir     string
			GoFiles []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if wantsFiles(p.ImportPath) {
			p.FileImports = map[string][]string{}
			for _, f := range p.GoFiles {
				p.FileImports[f] = fileImports(t, filepath.Join(p.Dir, f))
			}
		}
		graph = append(graph, p.Package)
	}
	return graph
}

func wantsFiles(importPath string) bool {
	for _, r := range Rules {
		if r.Except != nil && matchAny(r.Packages, importPath) {
			return true
		}
	}
	return false
}

func fileImports(t *testing.T, path string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var imports []string
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		imports = append(imports, p)
	}
	return imports
}

// TestImportRules: no package of the module depends on what its rule forbids.
func TestImportRules(t *testing.T) {
	graph := load(t)
	if len(graph) < 30 {
		t.Fatalf("go list found %d packages: not the module", len(graph))
	}
	for _, v := range Check(graph, Rules) {
		t.Error(v)
	}
	// Every rule must name packages that exist, or it holds nothing.
	for _, r := range Rules {
		for _, pattern := range r.Packages {
			found := false
			for _, p := range graph {
				found = found || Match(pattern, p.ImportPath)
			}
			if !found {
				t.Errorf("a rule names %q, which matches no package of the module", pattern)
			}
		}
	}
}

// TestCheckFindsWrongImports: the checker, on a made-up graph, finds each kind of wrong
// import, names the import it comes through, and passes the graph without it.
func TestCheckFindsWrongImports(t *testing.T) {
	m := func(rel string) string { return Module + "/" + rel }
	good := []Package{
		{ImportPath: "fmt", Standard: true},
		{ImportPath: m("rules"), Imports: []string{"fmt"}, Deps: []string{"fmt"}},
		{ImportPath: m("elo"), Imports: []string{"fmt"}, Deps: []string{"fmt"}},
		{ImportPath: m("results"), Imports: []string{m("elo")}, Deps: []string{"fmt", m("elo")}},
		{ImportPath: m("internal/proc"), Deps: []string{"fmt"}},
		{ImportPath: m("internal/lines"), Deps: []string{"fmt"}},
		{ImportPath: m("uhpclient"), Imports: []string{m("internal/proc"), m("rules")}, Deps: []string{"fmt", m("internal/proc"), m("rules")}},
		{ImportPath: m("enginekit/search"), Imports: []string{m("rules")}, Deps: []string{"fmt", m("rules")}},
		{ImportPath: m("openings"), Imports: []string{m("rules"), m("results")}, Deps: []string{"fmt", m("elo"), m("results"), m("rules")}},
		{ImportPath: m("arbiter"), Imports: []string{m("rules"), m("results"), m("openings")}, Deps: []string{"fmt", m("elo"), m("openings"), m("results"), m("rules")}},
		{ImportPath: m("cmd/arbiter"), Imports: []string{m("arbiter"), m("uhpclient")}, FileImports: map[string][]string{
			"protocols.go": {m("proto/uhp")}, "main.go": {m("arbiter")}}},
	}
	if v := Check(good, Rules); len(v) != 0 {
		t.Fatalf("the good graph breaks rules: %v", v)
	}
	tests := []struct {
		name string
		edit func(g []Package) []Package
		want string
	}{
		{"the arbiter through a package that links the UHP client", func(g []Package) []Package {
			g[8].Imports = append(g[8].Imports, m("uhpclient"))
			g[8].Deps = append(g[8].Deps, m("uhpclient"), m("internal/proc"))
			g[9].Deps = append(g[9].Deps, m("uhpclient"), m("internal/proc"))
			return g
		}, "arbiter depends on uhpclient (through openings)"},
		{"the openings on the search", func(g []Package) []Package {
			g[8].Imports = append(g[8].Imports, m("enginekit/search"))
			g[8].Deps = append(g[8].Deps, m("enginekit/search"))
			return g
		}, "openings depends on enginekit/search"},
		{"the referee on a third-party module", func(g []Package) []Package {
			g = append(g, Package{ImportPath: "github.com/x/y"})
			g[1].Deps = append(g[1].Deps, "github.com/x/y")
			return g
		}, "rules depends on github.com/x/y"},
		{"results on the arbiter", func(g []Package) []Package {
			g[3].Deps = append(g[3].Deps, m("arbiter"))
			return g
		}, "results depends on arbiter"},
		{"a command file naming a protocol", func(g []Package) []Package {
			g[10].FileImports["openings.go"] = []string{m("uhpclient")}
			return g
		}, "cmd/arbiter depends on uhpclient (through openings.go)"},
		{"a library on a test helper", func(g []Package) []Package {
			g[5].Deps = append(g[5].Deps, m("internal/testkit/golden"))
			return g
		}, "internal/lines depends on internal/testkit/golden"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := clone(good)
			v := Check(tc.edit(g), Rules)
			if len(v) == 0 {
				t.Fatalf("no violation, want %q", tc.want)
			}
			for _, v := range v {
				if strings.HasPrefix(v.String(), tc.want) {
					return
				}
			}
			t.Errorf("violations %q, want one that starts %q", v, tc.want)
		})
	}
}

func clone(g []Package) []Package {
	out := make([]Package, len(g))
	for i, p := range g {
		out[i] = p
		out[i].Imports = append([]string(nil), p.Imports...)
		out[i].Deps = append([]string(nil), p.Deps...)
		if p.FileImports != nil {
			out[i].FileImports = map[string][]string{}
			for f, imps := range p.FileImports {
				out[i].FileImports[f] = append([]string(nil), imps...)
			}
		}
	}
	return out
}

const (
	beginMark = "<!-- import rules: generated by go test ./internal/deptest -update-docs -->\n"
	endMark   = "<!-- end of import rules -->\n"
)

// TestArchitecturePage: docs/architecture.md shows the rules that TestImportRules holds.
func TestArchitecturePage(t *testing.T) {
	path := filepath.Join(root, "docs", "architecture.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	before, rest, ok := strings.Cut(page, beginMark)
	if !ok {
		t.Fatalf("%s has no line %q", path, strings.TrimSpace(beginMark))
	}
	got, after, ok := strings.Cut(rest, endMark)
	if !ok {
		t.Fatalf("%s has no line %q", path, strings.TrimSpace(endMark))
	}
	want := Markdown(Rules)
	if got == want {
		return
	}
	if *updateDocs {
		if err := os.WriteFile(path, []byte(before+beginMark+want+endMark+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the import rules of %s differ from Rules: run go test ./internal/deptest -update-docs\ngot:\n%s\nwant:\n%s", path, got, want)
}
