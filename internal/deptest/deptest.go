package deptest

import (
	"fmt"
	"slices"
	"strings"
)

// Module is the module path that the patterns of a Rule are relative to.
const Module = "hivearbiter"

// A Rule says what the packages matching Packages may depend on, directly or through
// another package: with Only set (even empty), no package of the module but those it
// matches; with StdOnly, nothing beyond the standard library and Only; and never what Not
// matches. A pattern is relative to Module ("arbiter" is that package alone, "proto/..." is
// proto and every package below it, "..." every package of the module) unless its first
// element holds a dot ("github.com/nats-io/...").
type Rule struct {
	Packages []string
	Only     []string
	StdOnly  bool
	Not      []string
	// Except, when set, makes the rule one about each file's own imports, not the package's
	// dependencies (only Not counts), and names the files it leaves alone.
	Except []string
	Why    string
}

// Package is one package of the import graph: its imports and all its dependencies.
type Package struct {
	ImportPath string
	Standard   bool
	Imports    []string
	Deps       []string
	// FileImports are the imports of each non-test Go file, by file name (only the rules with
	// Except look at them).
	FileImports map[string][]string
}

// Violation is a package depending on what its rule forbids.
type Violation struct {
	Package, Dep string
	Via          string // the import of Package through which it depends on Dep, or the file
	Rule         *Rule
}

func (v Violation) String() string {
	via := ""
	if v.Via != "" && v.Via != v.Dep {
		via = " (through " + trim(v.Via) + ")"
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
			if !matchAny(rule.Packages, p.ImportPath) {
				continue
			}
			if rule.Except != nil {
				out = append(out, checkFiles(p, rule)...)
				continue
			}
			for _, dep := range p.Deps {
				if forbidden(rule, p.ImportPath, dep, byPath) {
					out = append(out, Violation{Package: p.ImportPath, Dep: dep, Via: via(p, dep, byPath), Rule: rule})
				}
			}
		}
	}
	return out
}

// forbidden reports whether rule forbids a package to depend on dep.
func forbidden(rule *Rule, pkg, dep string, byPath map[string]*Package) bool {
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

// checkFiles applies a rule with Except to each file's own imports.
func checkFiles(p *Package, rule *Rule) []Violation {
	var out []Violation
	files := make([]string, 0, len(p.FileImports))
	for f := range p.FileImports {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		if slices.Contains(rule.Except, f) {
			continue
		}
		for _, imp := range p.FileImports[f] {
			if matchAny(rule.Not, imp) {
				out = append(out, Violation{Package: p.ImportPath, Dep: imp, Via: f, Rule: rule})
			}
		}
	}
	return out
}

// via is the first import of p that is dep or depends on it.
func via(p *Package, dep string, byPath map[string]*Package) string {
	for _, imp := range p.Imports {
		if imp == dep {
			return dep
		}
		if d := byPath[imp]; d != nil && slices.Contains(d.Deps, dep) {
			return imp
		}
	}
	return ""
}

// Markdown is the rules as docs/architecture.md shows them: one item per rule.
func Markdown(rules []Rule) string {
	var b strings.Builder
	for _, r := range rules {
		who := code(r.Packages)
		if len(r.Packages) == 1 && r.Packages[0] == "..." {
			who = "every package"
		}
		if r.Except != nil {
			who += ", in every file but " + code(r.Except)
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
