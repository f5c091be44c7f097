package deptest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the import rules of docs/architecture.md from Rules")

// root is the module's root, two directories up.
const root = "../.."

// load is the module's import graph on each of Platforms, as "go list -deps" gives it with
// GOOS set (and cgo off, as the release builds).
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
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Standard,Imports,Deps", "./...")
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
		var p Package
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		graph = append(graph, p)
	}
	if len(graph) < 30 {
		t.Fatalf("GOOS=%s go list found %d packages: not the module", goos, len(graph))
	}
	return graph
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
	// The made-up module, each package with its imports; its dependencies follow from them.
	good := graphOf(map[string][]string{
		"fmt":                            nil,
		nats:                             {"fmt"},
		m("rules"):                       {"fmt"},
		m("elo"):                         {"fmt"},
		m("results/outcome"):             {"fmt"},
		m("results"):                     {m("elo"), m("results/outcome")},
		m("internal/proc"):               {"fmt"},
		m("internal/lines"):              {"fmt"},
		m("uhpclient"):                   {m("internal/proc"), m("rules")},
		m("enginekit/search"):            {m("rules")},
		m("enginekit/uhpserver"):         {m("rules")},
		m("enginekit/uhpserver/uhpfake"): {m("enginekit/uhpserver")},
		m("openings/random"):             {m("rules")},
		m("openings"):                    {m("rules"), m("openings/random"), m("results")},
		m("arbiter/driver"):              {m("rules"), m("results/outcome")},
		m("arbiter/compliance"):          {m("arbiter/driver"), m("openings/random"), m("rules")},
		m("arbiter"):                     {m("arbiter/driver"), m("rules"), m("results"), m("openings")},
		m("arbiter/check"):               {m("arbiter"), m("arbiter/compliance"), m("arbiter/driver")},
		m("arbiter/arbitertest"):         {m("arbiter"), m("arbiter/compliance")},
		m("ci"):                          {m("arbiter"), m("results")},
		m("proto/uhp"):                   {m("arbiter/compliance"), m("arbiter/driver"), m("results/outcome"), m("uhpclient")},
		m("internal/protocols"):          {m("proto/uhp")},
		m("distributed"):                 {m("arbiter"), nats},
		m("tune"):                        {m("arbiter")},
		m("cmd/arbiter"):                 {m("arbiter"), m("arbiter/check"), m("ci"), m("distributed"), m("internal/protocols")},
		m("cmd/hivebot"):                 {m("enginekit/uhpserver"), m("enginekit/search")},
		m("internal/cmd/soak"):           {m("distributed"), m("enginekit/uhpserver/uhpfake")},
	})
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
	// link makes p import imp: p and every package that depends on it depend on imp and its
	// dependencies.
	link := func(g []Package, p, imp string) {
		q := pkg(g, p)
		q.Imports = append(q.Imports, pkg(g, imp).ImportPath)
		resolve(g)
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
		{"the command importing a protocol", "", func(g []Package) []Package {
			link(g, "cmd/arbiter", "proto/uhp")
			return g
		}, "cmd/arbiter depends on proto/uhp, which"},
		{"the command importing a protocol's client", "", func(g []Package) []Package {
			link(g, "cmd/arbiter", "uhpclient")
			return g
		}, "cmd/arbiter depends on uhpclient, which"},
		{"the protocols' package importing more than protocols", "", func(g []Package) []Package {
			link(g, "internal/protocols", "arbiter")
			return g
		}, "internal/protocols depends on arbiter, which"},
		{"a front end linking every protocol", "", func(g []Package) []Package {
			link(g, "tune", "internal/protocols")
			return g
		}, "tune depends on internal/protocols, which"},
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
		{"the command importing a protocol on darwin only", "darwin", func(g []Package) []Package {
			link(g, "cmd/arbiter", "uhpclient")
			return g
		}, "cmd/arbiter depends on uhpclient on darwin only, which"},
		{"the engine binary linking NATS", "", func(g []Package) []Package {
			link(g, "cmd/hivebot", "distributed")
			return g
		}, "cmd/hivebot depends on " + nats + " (through distributed), which"},
		{"the engine binary linking the arbiter", "", func(g []Package) []Package {
			link(g, "cmd/hivebot", "arbiter")
			return g
		}, "cmd/hivebot depends on arbiter, which"},
		{"a protocol importing the arbiter", "", func(g []Package) []Package {
			link(g, "proto/uhp", "arbiter")
			return g
		}, "proto/uhp depends on arbiter, which"},
		{"a protocol reaching the statistics through the records", "", func(g []Package) []Package {
			link(g, "arbiter/driver", "results") // the driver saying a game's end in the records' words, as it did
			return g
		}, "proto/uhp depends on elo (through arbiter/driver → results), which"},
		{"a protocol reaching the arbiter through the compliance framework", "", func(g []Package) []Package {
			link(g, "arbiter/compliance", "arbiter") // the play suite back beside the framework
			return g
		}, "proto/uhp depends on arbiter (through arbiter/compliance), which"},
		{"a protocol reaching the openings through the arbiter", "", func(g []Package) []Package {
			link(g, "arbiter/compliance", "arbiter")
			return g
		}, "proto/uhp depends on openings (through arbiter/compliance → arbiter), which"},
		{"a protocol importing the play check", "", func(g []Package) []Package {
			link(g, "proto/uhp", "arbiter/check")
			return g
		}, "proto/uhp depends on arbiter/check, which"},
		{"the driver package on the records", "", func(g []Package) []Package {
			link(g, "arbiter/driver", "results")
			return g
		}, "arbiter/driver depends on results, which"},
		{"the driver package on the arbiter's games", "", func(g []Package) []Package {
			link(g, "arbiter/driver", "arbiter")
			return g
		}, "arbiter/driver depends on arbiter, which"},
		{"the arbiter binary without a protocol", "", func(g []Package) []Package {
			return append(g, Package{ImportPath: m("proto/ugi"), Deps: []string{"fmt"}})
		}, "cmd/arbiter does not depend on proto/ugi, which its rule asks for"},
		{"the protocols' package without a protocol", "", func(g []Package) []Package {
			return append(g, Package{ImportPath: m("proto/ugi"), Deps: []string{"fmt"}})
		}, "internal/protocols does not depend on proto/ugi, which its rule asks for"},
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

// graphOf is the graph of packages with these imports, in the order of their paths, each
// depending on what it imports, directly or not; "fmt" is the standard library.
func graphOf(imports map[string][]string) []Package {
	var g []Package
	for _, path := range slices.Sorted(maps.Keys(imports)) {
		g = append(g, Package{ImportPath: path, Standard: path == "fmt", Imports: imports[path]})
	}
	resolve(g)
	return g
}

// resolve sets each package's dependencies from the imports of the graph.
func resolve(g []Package) {
	byPath := map[string]*Package{}
	for i := range g {
		byPath[g[i].ImportPath] = &g[i]
	}
	for i := range g {
		seen := map[string]bool{}
		var walk func(p string)
		walk = func(p string) {
			for _, imp := range byPath[p].Imports {
				if !seen[imp] {
					seen[imp] = true
					walk(imp)
				}
			}
		}
		walk(g[i].ImportPath)
		g[i].Deps = slices.Sorted(maps.Keys(seen))
	}
}

func clone(g []Package) []Package {
	out := make([]Package, len(g))
	for i, p := range g {
		out[i] = p
		out[i].Imports = append([]string(nil), p.Imports...)
		out[i].Deps = append([]string(nil), p.Deps...)
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
