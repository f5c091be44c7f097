package deptest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Module is the module path that the patterns of a Rule are relative to.
const Module = "hivearbiter"

// A Rule says what the packages matching Packages may depend on, directly or through
// another package: with Only set (even empty), no package of the module but those it
// matches; with StdOnly, nothing beyond the standard library and Only; and never what Not
// matches; with Needs, they must depend on every package that it matches. A rule with
// OwnImports holds over what the packages import themselves instead, and one with LinkedBy
// over the packages that depend on those of Packages. A rule holds over whole packages: no
// file of a package is left out of it. A pattern is
// relative to Module ("arbiter" is that package alone, "proto/..." is proto and every
// package below it, "..." every package of the module) unless its first element holds a dot
// ("github.com/nats-io/...").
type Rule struct {
	Packages []string
	Only     []string
	StdOnly  bool
	Not      []string
	// OwnImports makes Only, StdOnly and Not hold over the packages' own imports, not over
	// what they link through them: a front end that links what it may not name, through the
	// one package whose job is to link it (the command's protocols, through
	// internal/protocols).
	OwnImports bool
	// Needs are what the packages must depend on: every package of the graph that a pattern
	// matches (a binary that must link every protocol).
	Needs []string
	// LinkedBy, when set (even empty), turns the rule around (and the fields above do not
	// count): no package of the module but those it matches, and those of Packages
	// themselves, may depend on a package of Packages. Tests are not in the graph: they
	// always may.
	LinkedBy []string
	Why      string
}

// Platforms are the operating systems (GOOS) the rules hold on, the release's: files with build
// constraints make each one's graph its own, so a rule holds on each.
var Platforms = []string{"linux", "windows", "darwin"}

// Package is one package of the import graph: its imports and all its dependencies.
type Package struct {
	ImportPath string
	Standard   bool
	Imports    []string
	Deps       []string
}

// Violation is a package depending on what its rule forbids.
type Violation struct {
	Package, Dep string
	// Path is the shortest chain of imports from Package to Dep, neither included: empty when
	// Package imports Dep itself.
	Path    []string
	Rule    *Rule
	Missing bool // Package does not depend on Dep, which the rule's Needs ask for
	// Platforms are the platforms (GOOS) where it happens, when that is not every platform
	// checked (see CheckPlatforms); nil for all of them.
	Platforms []string
}

// String is the violation as the test reports it: the package, what it depends on and through
// what, the rule's reason and, when only some break it, the platforms.
func (v Violation) String() string {
	via := ""
	if len(v.Path) > 0 {
		through := make([]string, len(v.Path))
		for i, p := range v.Path {
			through[i] = trim(p)
		}
		via = " (through " + strings.Join(through, " → ") + ")"
	}
	if v.Platforms != nil {
		via += " on " + strings.Join(v.Platforms, " and ") + " only"
	}
	if v.Missing {
		return fmt.Sprintf("%s does not depend on %s%s, which its rule asks for: %s", trim(v.Package), trim(v.Dep), via, v.Rule.Why)
	}
	return fmt.Sprintf("%s depends on %s%s, which its rule forbids: %s", trim(v.Package), trim(v.Dep), via, v.Rule.Why)
}

// Match reports whether a package's import path matches a pattern of a Rule.
func Match(pattern, importPath string) bool {
	if first, _, _ := strings.Cut(pattern, "/"); first == "..." || !strings.Contains(first, ".") {
		pattern = Module + "/" + pattern
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return importPath == base || strings.HasPrefix(importPath, base+"/")
	}
	return importPath == pattern
}

func matchAny(patterns []string, importPath string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return Match(p, importPath) })
}

func inModule(importPath string) bool {
	return importPath == Module || strings.HasPrefix(importPath, Module+"/")
}

func trim(importPath string) string { return strings.TrimPrefix(importPath, Module+"/") }

// Check returns every break of the rules in the graph, packages in the graph's order.
func Check(graph []Package, rules []Rule) []Violation {
	byPath := map[string]*Package{}
	for i := range graph {
		byPath[graph[i].ImportPath] = &graph[i]
	}
	var out []Violation
	for i := range graph {
		p := &graph[i]
		if p.Standard || !inModule(p.ImportPath) {
			continue
		}
		for r := range rules {
			rule := &rules[r]
			if rule.LinkedBy != nil {
				out = append(out, checkLinkedBy(p, rule, byPath)...)
				continue
			}
			if !matchAny(rule.Packages, p.ImportPath) {
				continue
			}
			deps := p.Deps
			if rule.OwnImports {
				deps = p.Imports
			}
			for _, dep := range deps {
				if forbidden(rule, dep, byPath) {
					out = append(out, Violation{Package: p.ImportPath, Dep: dep, Path: importPath(p, dep, byPath), Rule: rule})
				}
			}
			for _, q := range graph {
				if q.ImportPath != p.ImportPath && matchAny(rule.Needs, q.ImportPath) && !slices.Contains(p.Deps, q.ImportPath) {
					out = append(out, Violation{Package: p.ImportPath, Dep: q.ImportPath, Rule: rule, Missing: true})
				}
			}
		}
	}
	return out
}

// CheckPlatforms checks the graph of each platform, keyed by GOOS, and returns each break
// once, in the order of the platforms' names and then of their graphs: a break that some
// platforms have and others not (a file with a build constraint) names the ones that have it.
func CheckPlatforms(graphs map[string][]Package, rules []Rule) []Violation {
	type key struct {
		pkg, dep, path string
		rule           *Rule
	}
	goos := slices.Sorted(maps.Keys(graphs))
	seen := map[key]int{}
	var out []Violation
	for _, platform := range goos {
		for _, v := range Check(graphs[platform], rules) {
			k := key{v.Package, v.Dep, strings.Join(v.Path, " "), v.Rule}
			i, ok := seen[k]
			if !ok {
				i = len(out)
				seen[k] = i
				out = append(out, v)
			}
			if !slices.Contains(out[i].Platforms, platform) {
				out[i].Platforms = append(out[i].Platforms, platform)
			}
		}
	}
	for i := range out {
		if len(out[i].Platforms) == len(goos) {
			out[i].Platforms = nil
		}
	}
	return out
}

// forbidden reports whether rule forbids a package to depend on dep.
func forbidden(rule *Rule, dep string, byPath map[string]*Package) bool {
	if matchAny(rule.Not, dep) {
		return true
	}
	if d := byPath[dep]; d != nil && d.Standard {
		return false
	}
	if !inModule(dep) {
		return rule.StdOnly
	}
	return (rule.Only != nil || rule.StdOnly) && !matchAny(rule.Only, dep)
}

// checkLinkedBy applies a rule with LinkedBy to the dependencies of p.
func checkLinkedBy(p *Package, rule *Rule, byPath map[string]*Package) []Violation {
	if matchAny(rule.Packages, p.ImportPath) || matchAny(rule.LinkedBy, p.ImportPath) {
		return nil
	}
	var out []Violation
	for _, dep := range p.Deps {
		if matchAny(rule.Packages, dep) {
			out = append(out, Violation{Package: p.ImportPath, Dep: dep, Path: importPath(p, dep, byPath), Rule: rule})
		}
	}
	return out
}

// importPath is the shortest chain of imports that leads from p to dep, neither included
// (breadth first, in the order of each package's imports): nil when p imports dep itself, or
// when the graph shows no chain.
func importPath(p *Package, dep string, byPath map[string]*Package) []string {
	from := map[string]string{p.ImportPath: ""}
	queue := []string{p.ImportPath}
	for len(queue) > 0 {
		at := byPath[queue[0]]
		queue = queue[1:]
		if at == nil {
			continue
		}
		for _, imp := range at.Imports {
			if _, seen := from[imp]; seen {
				continue
			}
			from[imp] = at.ImportPath
			if imp != dep {
				queue = append(queue, imp)
				continue
			}
			var chain []string
			for q := at.ImportPath; q != p.ImportPath; q = from[q] {
				chain = append(chain, q)
			}
			slices.Reverse(chain)
			return chain
		}
	}
	return nil
}

// Markdown is the rules as docs/architecture.md shows them: one item per rule.
func Markdown(rules []Rule) string {
	var b strings.Builder
	for _, r := range rules {
		who := code(r.Packages)
		if len(r.Packages) == 1 && r.Packages[0] == "..." {
			who = "every package"
		}
		switch {
		case r.OwnImports && len(r.Packages) == 1:
			who += ", in its own imports"
		case r.OwnImports:
			who += ", in their own imports"
		}
		var parts []string
		switch {
		case r.StdOnly && len(r.Only) == 0:
			parts = append(parts, "the standard library only")
		case r.StdOnly:
			parts = append(parts, "the standard library and "+code(r.Only)+" only")
		case r.Only != nil && len(r.Only) == 0:
			parts = append(parts, "nothing of the project")
		case r.Only != nil:
			parts = append(parts, "of the project, "+code(r.Only)+" only")
		}
		if len(r.Not) > 0 {
			parts = append(parts, "never "+code(r.Not))
		}
		if len(r.Needs) > 0 {
			parts = append(parts, "links every package of "+code(r.Needs))
		}
		switch {
		case r.LinkedBy == nil:
		case len(r.LinkedBy) == 0:
			parts = append(parts, "linked by tests only")
		case len(r.Packages) > 1:
			parts = append(parts, "linked by tests, each other and "+code(r.LinkedBy)+" only")
		default:
			parts = append(parts, "linked by tests and "+code(r.LinkedBy)+" only")
		}
		fmt.Fprintf(&b, "- %s — %s: %s.\n", who, strings.Join(parts, "; "), r.Why)
	}
	return b.String()
}

func code(patterns []string) string {
	quoted := make([]string, len(patterns))
	for i, p := range patterns {
		quoted[i] = "`" + p + "`"
	}
	return strings.Join(quoted, ", ")
}
