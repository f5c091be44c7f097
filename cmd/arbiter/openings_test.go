package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/cli"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/openings"
)

var regenerateBooks = flag.Bool("regenerate-books", false, "regenerate the shipped opening books with the commands in their headers and compare (minutes of CPU)")

// generateBook runs "arbiter openings generate" and returns what it printed.
func generateBook(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), append([]string{"openings", "generate"}, args...), &stdout, &stderr); err != nil {
		t.Fatalf("openings generate %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// TestOpeningsGenerate: the command makes the same book twice from a seed (the golden file
// holds it, header and comments included), and -out writes what standard output shows.
func TestOpeningsGenerate(t *testing.T) {
	args := []string{"-game-type", "Base+MLP", "-plies", "4", "-count", "12", "-candidates", "30", "-seed", "3", "-depth", "2", "-band", "20"}
	first := generateBook(t, args...)
	if again := generateBook(t, args...); again != first {
		t.Fatalf("two books from one seed:\n%s\n---\n%s", first, again)
	}
	golden.Check(t, filepath.Join("testdata", "openings-generate.golden"), []byte(first))
	out := filepath.Join(t.TempDir(), "book.txt")
	generateBook(t, append(args, "-out", out)...)
	if data, err := os.ReadFile(out); err != nil || string(data) != first {
		t.Errorf("-out wrote %q, %v", data, err)
	}
}

// TestOpeningsGenerateEngine: a UHP engine playing positions out against itself (hivebot over
// UHP, from the test binary) scores them as hivebot's in-process playouts do, so the two make
// the same book.
func TestOpeningsGenerateEngine(t *testing.T) {
	t.Parallel()
	args := []string{"-game-type", "Base", "-plies", "4", "-count", "4", "-candidates", "5", "-seed", "2", "-depth", "1", "-band", "100", "-balance"}
	positions := func(book string) []string {
		var lines []string
		for _, l := range strings.Split(book, "\n") {
			if !strings.HasPrefix(l, "#") {
				lines = append(lines, l)
			}
		}
		return lines
	}
	inProcess := generateBook(t, append(args, "-playout")...)
	overUHP := generateBook(t, append(args, "-engine", os.Args[0]+" hivebot")...)
	if a, b := positions(inProcess), positions(overUHP); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("in-process playouts:\n%s\nover UHP:\n%s", inProcess, overUHP)
	}
	if !strings.Contains(overUHP, "# Made by: arbiter openings generate -game-type Base -plies 4 -count 4 -seed 2 -depth 1 -band 100 -balance -candidates 5 -engine ") ||
		!strings.Contains(overUHP, "playing itself out at depth 1") {
		t.Errorf("the header does not give the command and the evaluator:\n%s", overUHP)
	}
}

// TestOpeningsListShow: list names the shipped books, show prints one; anything else is a
// usage error.
func TestOpeningsListShow(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"openings", "list"}, &stdout, &stderr); err != nil || stdout.String() != "base\nbase+mlp\n" {
		t.Errorf("list: %q, %v", stdout.String(), err)
	}
	stdout.Reset()
	want, _ := openings.ReadBook("base")
	if err := run(context.Background(), []string{"openings", "show", "base"}, &stdout, &stderr); err != nil || stdout.String() != string(want) {
		t.Errorf("show base: %v, %d bytes, want %d", err, stdout.Len(), len(want))
	}
	for _, args := range [][]string{{"openings"}, {"openings", "show", "chess"}, {"openings", "generate", "-game-type", "Chess"}, {"openings", "generate", "-plies", "0"}} {
		var ue cli.UsageError
		if err := run(context.Background(), args, &stdout, &stderr); !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}

// TestOpeningsShippedBooksRegenerate: each shipped book is what the command in its header
// makes, byte for byte. It takes minutes of CPU, so it runs with -regenerate-books.
func TestOpeningsShippedBooksRegenerate(t *testing.T) {
	if !*regenerateBooks {
		t.Skip("regenerating the shipped books takes minutes: run with -regenerate-books")
	}
	for _, name := range openings.BookNames() {
		t.Run(name, func(t *testing.T) {
			data, err := openings.ReadBook(name)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(data), "\n")
			command, ok := strings.CutPrefix(lines[1], "# Made by: arbiter openings generate ")
			if !ok {
				t.Fatalf("no command in %q", lines[1])
			}
			if got := generateBook(t, strings.Fields(command)...); got != string(data) {
				t.Errorf("%s differs from what its command makes:\n%s", name, golden.Diff(string(data), got))
			}
		})
	}
}
