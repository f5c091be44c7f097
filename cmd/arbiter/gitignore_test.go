package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/configs"
)

// gitignored tells whether a path relative to the repository root is ignored by the patterns
// of a .gitignore, for the patterns that file uses: a leading "/" anchors a pattern at the root
// (as does a "/" inside it), a trailing "/" matches directories only, "*" matches within one
// path element, and a file inside an ignored directory is ignored. Negations are not supported.
func gitignored(patterns []string, name string) bool {
	elems := strings.Split(name, "/")
	for _, pattern := range patterns {
		dirOnly := strings.HasSuffix(pattern, "/")
		pattern = strings.TrimSuffix(pattern, "/")
		anchored := strings.Contains(pattern, "/")
		pattern = strings.TrimPrefix(pattern, "/")
		for i := range elems {
			if dirOnly && i == len(elems)-1 {
				break // the last element is the file itself
			}
			subject := elems[i]
			if anchored {
				subject = path.Join(elems[:i+1]...)
			}
			if ok, _ := path.Match(pattern, subject); ok {
				return true
			}
		}
	}
	return false
}

// gitignorePatterns reads the repository's .gitignore.
func gitignorePatterns(t *testing.T) []string {
	data, err := os.ReadFile(filepath.Join(repoRoot, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			if strings.HasPrefix(line, "!") {
				t.Fatalf(".gitignore: %q: gitignored does not know negations", line)
			}
			patterns = append(patterns, line)
		}
	}
	return patterns
}

func TestGitignored(t *testing.T) {
	patterns := []string{"*.test", "/out/", "arbiter-*.jsonl", "*.jsonl.nats/", "/*.pgn"}
	tests := []struct {
		name string
		want bool
	}{
		{"arbiter.test", true},
		{"cmd/arbiter/arbiter.test", true},
		{"out/x", true},
		{"out", false}, // a file named out: /out/ is a directory
		{"cmd/out/x", false},
		{"arbiter-ab12.jsonl", true},
		{"sub/arbiter-ab12.jsonl", true},
		{"games.jsonl", false},
		{"run.jsonl.nats/worker.creds", true},
		{"run.jsonl.nats", false},
		{"mine.pgn", true},
		{"results/testdata/game.pgn", false},
	}
	for _, tc := range tests {
		if got := gitignored(patterns, tc.name); got != tc.want {
			t.Errorf("gitignored(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// defaultOutputs lists the files the arbiter writes when it is not told where, and those that
// the example configurations and the docs' examples name, as they land when run at the root of
// a clone.
func defaultOutputs(t *testing.T) []string {
	var outs []string
	engines := append(append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...), "-each", "st=1")
	for _, extra := range [][]string{nil, {"-shard", "1/2"}} {
		var stderr bytes.Buffer
		cfg, err := matchConfig(append(engines, extra...), &stderr)
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		tour, err := arbiter.NewTournament(cfg, arbiter.TournamentOptions{})
		if err != nil {
			t.Fatal(err)
		}
		records := tour.Config().Out
		// A coordinator keeps its NATS store and the workers' credentials beside its records.
		outs = append(outs, records, records+".nats/worker.creds", records+".nats/jetstream/stream")
	}
	outs = append(outs, "arbiter-serve-"+strings.Repeat("0", 16)+".jsonl", "report.html.123.tmp")

	// The report's default file, as "arbiter report -h" states it.
	var stdout, stderr bytes.Buffer
	_ = run(context.Background(), []string{"report", "-h"}, &stdout, &stderr)
	m := regexp.MustCompile(`-o file\n.*\(default "([^"]+)"\)`).FindStringSubmatch(stdout.String() + stderr.String())
	if m == nil {
		t.Fatalf("arbiter report -h states no default for -o:\n%s%s", stdout.String(), stderr.String())
	}
	outs = append(outs, m[1])

	for _, name := range configs.Examples() {
		var stderr bytes.Buffer
		cfg, err := matchConfig([]string{"-config", repoRoot + "/configs/" + name}, &stderr)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, stderr.String())
		}
		for _, f := range []string{cfg.Out, cfg.PGNOut, cfg.JSONOut} {
			if f != "" {
				outs = append(outs, f)
			}
		}
	}
	for _, ex := range docsExamples(t) {
		for i, a := range ex.args {
			if i > 0 && (ex.args[i-1] == "-out" || ex.args[i-1] == "-pgnout" || ex.args[i-1] == "-o" || ex.args[i-1] == "-report") {
				outs = append(outs, a)
			}
		}
	}
	return outs
}

// TestGitignoreCoversOutputs checks that a run in a clone leaves the work tree clean: every
// default output of the arbiter is ignored, and no file the repository keeps is.
func TestGitignoreCoversOutputs(t *testing.T) {
	patterns := gitignorePatterns(t)
	outs := defaultOutputs(t)
	if len(outs) < 10 {
		t.Fatalf("found only %d default outputs: %q", len(outs), outs)
	}
	for _, out := range outs {
		if !gitignored(patterns, filepath.ToSlash(out)) {
			t.Errorf(".gitignore does not cover %s", out)
		}
	}
	// The repository's own data: docs, configurations and test data.
	for _, dir := range []string{"docs", "configs", "results/testdata", "results/render/testdata", "report/testdata", "cmd/arbiter/testdata"} {
		err := fs.WalkDir(os.DirFS(repoRoot), dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && gitignored(patterns, p) {
				t.Errorf(".gitignore covers %s, a file of the repository", p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Every Go source file, and a new one in any package's directory (a pattern such as
	// "/arbiter", meant for a binary, would hide the arbiter package's next file from git).
	err := fs.WalkDir(os.DirFS(repoRoot), ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules"):
			return fs.SkipDir
		case d.IsDir():
			if p != "." && gitignored(patterns, p+"/new.go") {
				t.Errorf(".gitignore would hide a new file %s/new.go", p)
			}
		case strings.HasSuffix(p, ".go") && gitignored(patterns, p):
			t.Errorf(".gitignore covers %s, a file of the repository", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
