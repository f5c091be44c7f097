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
	"slices"
	"strconv"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the import rules of docs/architecture.md from Rules")

// root is the module's root, two directories up.
const root = "../.."

// load is the module's import graph on each of Platforms, as "go list -deps" gives it with
// GOOS set (and cgo off, as the release builds), with each file's imports for the packages
// that a rule with Except looks at.
func load(t *testing.T) map[string][]Package {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		// go test runs with it; a rule that went unchecked would pass in silence.
		t.Fatal("the import rules need the go command on PATH (go list): put Go's bin directory on PATH")
	}
	graphs := map[string][]Package{}
	for _, goos := range Platforms {
		graphs[goos] = loadPlatform(t, goos)
	}
	return graphs
}

func loadPlatform(t *testing.T, goos string) []Package {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Standard,Imports,Deps,Dir,GoFiles", "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("GOOS=%s go list: %v\n%s", goos, err, stderr.String())
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
	if len(graph) < 30 {
		t.Fatalf("GOOS=%s go list found %d packages: not the module", goos, len(graph))
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

// TestImportRules: no package of the module depends on what its rule forbids, on any of
// Platforms.
func TestImportRules(t *testing.T) {
	graphs := load(t)
	for _, v := range CheckPlatforms(graphs, Rules) {
		t.Error(v)
	}
	// Every rule must name packages that exist (on some platform), or it holds nothing: those
	// it holds and those it asks for or lets link them.
	for _, r := range Rules {
		for _, pattern := range slices.Concat(r.Packages, r.Needs, r.LinkedBy) {
			found := false
			for _, graph := range graphs {
				for _, p := range graph {
					found = found || Match(pattern, p.ImportPath)
				}
			}
			if !found {
				t.Errorf("a rule names %q, which matches no package of the module", pattern)
			}
		}
	}
}

// TestCheckFindsWrongImports: the checker, on a made-up graph of each platform, finds each
// kind of wrong import, names the import it comes through (and the platform, when only one
// has it), and passes the graphs without it.
func TestCheckFindsWrongImports(t *testing.T) {
	m := func(rel string) string { return Module + "/" + rel }
	const nats = "github.com/nats-io/nats.go"
	good := []Package{
		{ImportPath: "fmt", Standard: true},
		{ImportPath: nats, Imports: []string{"fmt"}, Deps: []string{"fmt"}},
		{ImportPath: m("rules"), Imports: []string{"fmt"}, Deps: []string{"fmt"}},
		{ImportPath: m("elo"), Imports: []string{"fmt"}, Deps: []string{"fmt"}},
		{ImportPath: m("results/outcome"), Imports: []string{"fmt"}, Deps: []string{"fmt"}},
		{ImportPath: m("results"), Imports: []string{m("elo"), m("results/outcome")}, Deps: []string{"fmt", m("elo"), m("results/outcome")}},
		{ImportPath: m("internal/proc"), Deps: []string{"fmt"}},
		{ImportPath: m("internal/lines"), Deps: []string{"fmt"}},
		{ImportPath: m("uhpclient"), Imports: []string{m("internal/proc"), m("rules")}, Deps: []string{"fmt", m("internal/proc"), m("rules")}},
		{ImportPath: m("enginekit/search"), Imports: []string{m("rules")}, Deps: []string{"fmt", m("rules")}},
		{ImportPath: m("enginekit/uhpserver"), Imports: []string{m("rules")}, Deps: []string{"fmt", m("rules")}},
		{ImportPath: m("enginekit/uhpserver/uhpfake"), Imports: []string{m("enginekit/uhpserver")}, Deps: []string{"fmt", m("enginekit/uhpserver"), m("rules")}},
		{ImportPath: m("openings"), Imports: []string{m("rules"), m("results")}, Deps: []string{"fmt", m("elo"), m("results"), m("rules")}},
		{ImportPath: m("arbiter/driver"), Imports: []string{m("rules"), m("results/outcome")}, Deps: []string{"fmt", m("results/outcome"), m("rules")}},
		{ImportPath: m("arbiter"), Imports: []string{m("arbiter/driver"), m("rules"), m("results"), m("openings")}, Deps: []string{"fmt", m("arbiter/driver"), m("elo"), m("openings"), m("results"), m("rules")}},
		{ImportPath: m("arbiter/compliance"), Imports: []string{m("arbiter"), m("arbiter/driver")}, Deps: []string{"fmt", m("arbiter"), m("arbiter/driver"), m("elo"), m("openings"), m("results"), m("rules")}},
		{ImportPath: m("arbiter/arbitertest"), Imports: []string{m("arbiter")}, Deps: []string{"fmt", m("arbiter"), m("elo"), m("openings"), m("results"), m("rules")}},
		{ImportPath: m("ci"), Imports: []string{m("arbiter"), m("results")}, Deps: []string{"fmt", m("arbiter"), m("elo"), m("openings"), m("results"), m("rules")}},
		{ImportPath: m("proto/uhp"), Imports: []string{m("arbiter/compliance"), m("arbiter/driver"), m("uhpclient")},
			Deps:        []string{"fmt", m("arbiter"), m("arbiter/compliance"), m("arbiter/driver"), m("elo"), m("internal/proc"), m("openings"), m("results"), m("rules"), m("uhpclient")},
			FileImports: map[string][]string{"player.go": {m("arbiter/driver"), m("uhpclient")}, "check.go": {m("arbiter/compliance"), m("arbiter/driver")}}},
		{ImportPath: m("distributed"), Imports: []string{m("arbiter"), nats}, Deps: []string{"fmt", nats, m("arbiter"), m("elo"), m("openings"), m("results"), m("rules")}},
		{ImportPath: m("tune"), Imports: []string{m("arbiter")}, Deps: []string{"fmt", m("arbiter"), m("elo"), m("openings"), m("results"), m("rules")}},
		{ImportPath: m("cmd/arbiter"), Imports: []string{m("arbiter"), m("ci"), m("distributed"), m("proto/uhp")},
			Deps:        []string{"fmt", nats, m("arbiter"), m("ci"), m("distributed"), m("elo"), m("internal/proc"), m("openings"), m("proto/uhp"), m("results"), m("rules"), m("uhpclient")},
			FileImports: map[string][]string{"protocols.go": {m("proto/uhp")}, "main.go": {m("arbiter")}}},
		{ImportPath: m("cmd/hivebot"), Imports: []string{m("enginekit/uhpserver"), m("enginekit/search")}, Deps: []string{"fmt", m("enginekit/search"), m("enginekit/uhpserver"), m("rules")}},
		{ImportPath: m("internal/cmd/soak"), Imports: []string{m("distributed"), m("enginekit/uhpserver/uhpfake")},
			Deps: []string{"fmt", nats, m("arbiter"), m("distributed"), m("elo"), m("enginekit/uhpserver"), m("enginekit/uhpserver/uhpfake"), m("openings"), m("results"), m("rules")}},
	}
	onEvery := func(g []Package) map[string][]Package {
		graphs := map[string][]Package{}
		for _, goos := range Platforms {
			graphs[goos] = clone(g)
		}
		return graphs
	}
	if v := CheckPlatforms(onEvery(good), Rules); len(v) != 0 {
		t.Fatalf("the good graph breaks rules: %v", v)
	}
	// pkg finds a package of g to edit, by its path in the module.
	pkg := func(g []Package, rel string) *Package {
		for i := range g {
			if g[i].ImportPath == m(rel) {
				return &g[i]
			}
		}
		t.Fatalf("the made-up graph has no %s", rel)
		return nil
	}
	// link makes p import imp, and depend on it and its dependencies.
	link := func(g []Package, p, imp string) {
		q, d := pkg(g, p), pkg(g, imp)
		q.Imports = append(q.Imports, d.ImportPath)
		q.Deps = append(q.Deps, d.ImportPath)
		q.Deps = append(q.Deps, d.Deps...)
	}
	tests := []struct {
		name string
		goos string // the one platform whose graph edit changes; every platform's when empty
		edit func(g []Package) []Package
		want string
	}{
		{"the arbiter through a package that links the UHP client", "", func(g []Package) []Package {
			link(g, "openings", "uhpclient")
			link(g, "arbiter", "openings")
			return g
		}, "arbiter depends on uhpclient (through openings), which"},
		{"the openings on the search", "", func(g []Package) []Package {
			link(g, "openings", "enginekit/search")
			return g
		}, "openings depends on enginekit/search, which"},
		{"the referee on a third-party module", "", func(g []Package) []Package {
			g = append(g, Package{ImportPath: "github.com/x/y"})
			pkg(g, "rules").Deps = append(pkg(g, "rules").Deps, "github.com/x/y")
			return g
		}, "rules depends on github.com/x/y, which"},
		{"results on the arbiter", "", func(g []Package) []Package {
			pkg(g, "results").Deps = append(pkg(g, "results").Deps, m("arbiter"))
			return g
		}, "results depends on arbiter, which"},
		{"a command file naming a protocol", "", func(g []Package) []Package {
			pkg(g, "cmd/arbiter").FileImports["openings.go"] = []string{m("uhpclient")}
			return g
		}, "cmd/arbiter depends on uhpclient (through openings.go), which"},
		{"a library on a test helper", "", func(g []Package) []Package {
			pkg(g, "internal/lines").Deps = append(pkg(g, "internal/lines").Deps, m("internal/testkit/golden"))
			return g
		}, "internal/lines depends on internal/testkit/golden, which"},
		{"ci on a runner", "", func(g []Package) []Package {
			link(g, "ci", "distributed")
			return g
		}, "ci depends on distributed, which"},
		{"ci on NATS", "", func(g []Package) []Package {
			link(g, "ci", "distributed")
			return g
		}, "ci depends on " + nats + " (through distributed), which"},
		{"a front end on a test double", "", func(g []Package) []Package {
			link(g, "tune", "arbiter/arbitertest")
			return g
		}, "tune depends on arbiter/arbitertest, which"},
		{"the arbiter binary on the test protocol", "", func(g []Package) []Package {
			link(g, "cmd/arbiter", "arbiter/arbitertest")
			return g
		}, "cmd/arbiter depends on arbiter/arbitertest, which"},
		{"the referee on a module on windows only", "windows", func(g []Package) []Package {
			g = append(g, Package{ImportPath: "golang.org/x/sys/windows"})
			pkg(g, "rules").Deps = append(pkg(g, "rules").Deps, "golang.org/x/sys/windows")
			return g
		}, "rules depends on golang.org/x/sys/windows on windows only, which"},
		{"a command file naming a protocol on darwin only", "darwin", func(g []Package) []Package {
			pkg(g, "cmd/arbiter").FileImports["open_darwin.go"] = []string{m("uhpclient")}
			return g
		}, "cmd/arbiter depends on uhpclient (through open_darwin.go) on darwin only, which"},
		{"the engine binary linking NATS", "", func(g []Package) []Package {
			link(g, "cmd/hivebot", "distributed")
			return g
		}, "cmd/hivebot depends on " + nats + " (through distributed), which"},
		{"the engine binary linking the arbiter", "", func(g []Package) []Package {
			link(g, "cmd/hivebot", "arbiter")
			return g
		}, "cmd/hivebot depends on arbiter, which"},
		{"a protocol file reaching into the arbiter", "", func(g []Package) []Package {
			pkg(g, "proto/uhp").FileImports["check.go"] = append(pkg(g, "proto/uhp").FileImports["check.go"], m("arbiter"))
			return g
		}, "proto/uhp depends on arbiter (through check.go), which"},
		{"the driver package on the arbiter's games", "", func(g []Package) []Package {
			link(g, "arbiter/driver", "arbiter")
			return g
		}, "arbiter/driver depends on arbiter, which"},
		{"the arbiter binary without a protocol", "", func(g []Package) []Package {
			return append(g, Package{ImportPath: m("proto/ugi"), Deps: []string{"fmt"}})
		}, "cmd/arbiter does not depend on proto/ugi, which its rule asks for"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			graphs := onEvery(good)
			for goos, g := range graphs {
				if tc.goos == "" || tc.goos == goos {
					graphs[goos] = tc.edit(g)
				}
			}
			v := CheckPlatforms(graphs, Rules)
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
