package openings

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"hivearbiter/rules"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpeningsFromGameStrings(t *testing.T) {
	path := writeFile(t, "book.txt", "# three openings\nBase;NotStarted;White[1];wS1\n\nBase;InProgress;White[2];wS1;bS1 wS1-\nBase;InProgress;White[2];wA1;bG1 -wA1\n")
	b, err := Load(Config{File: path}, rules.Base, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != 3 {
		t.Fatalf("%d openings, want 3", b.Len())
	}
	// Sequential from an offset, wrapping around; stored as the referee writes them.
	b.start = 2
	want := []int{2, 0, 1, 2}
	for p, w := range want {
		gs, idx := b.At(p)
		if idx != w {
			t.Errorf("pair %d: opening %d, want %d", p, idx, w)
		}
		if gs != b.lines[w] {
			t.Errorf("pair %d: %q", p, gs)
		}
	}
	if gs, _ := b.At(1); gs != "Base;InProgress;Black[1];wS1" {
		t.Errorf("opening not normalized by the referee: %q", gs)
	}
}

func TestOpeningsRandomOrderCoversTheBook(t *testing.T) {
	path := writeFile(t, "book.txt", "Base;NotStarted;White[1];wS1\nBase;NotStarted;White[1];wA1\nBase;NotStarted;White[1];wG1\nBase;NotStarted;White[1];wB1\n")
	b, err := Load(Config{File: path, Order: "random"}, rules.Base, 9)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{}
	for p := 0; p < 8; p++ {
		_, idx := b.At(p)
		seen[idx]++
	}
	for i := 0; i < 4; i++ {
		if seen[i] != 2 {
			t.Errorf("opening %d used %d times in two passes, want 2 (each pass is a permutation)", i, seen[i])
		}
	}
}

func TestOpeningsFromPGN(t *testing.T) {
	pgn := "[GameType \"Base+M\"]\n[Result \"InProgress\"]\n\n1. wM\n2. bS1 wM-\n\n[GameType \"Base+M\"]\n\n1. wS1\n"
	b, err := Load(Config{File: writeFile(t, "book.pgn", pgn)}, rules.BaseM, 1)
	if err != nil {
		t.Fatal(err)
	}
	if gs, _ := b.At(0); gs != "Base+M;InProgress;White[2];wM;bS1 wM-" {
		t.Errorf("first PGN opening = %q", gs)
	}
}

func TestOpeningsErrorsNameTheLine(t *testing.T) {
	tests := []struct {
		content string
		line    int
	}{
		{"Base;NotStarted;White[1];wS1\nBase;InProgress;White[2];wS1;wS2\n", 2},
		{"Base+M;NotStarted;White[1];wM\n", 1}, // wrong game type for a Base tournament
		{"\n\nnonsense\n", 3},
	}
	for _, tc := range tests {
		_, err := Load(Config{File: writeFile(t, "bad.txt", tc.content)}, rules.Base, 1)
		var oe *Error
		if !errors.As(err, &oe) || oe.Line != tc.line {
			t.Errorf("%q: err = %v, want an openings.Error at line %d", tc.content, err, tc.line)
		}
	}
	if _, err := Load(Config{File: writeFile(t, "empty.txt", "# nothing\n")}, rules.Base, 1); err == nil {
		t.Error("an empty book was accepted")
	}
	if _, err := Load(Config{Order: "shuffled"}, rules.Base, 1); err == nil {
		t.Error("an unknown order was accepted")
	}
}

func TestBookRandomPliesIsPure(t *testing.T) {
	b, err := Load(Config{RandomPlies: 6}, rules.BaseMLP, 42)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for p := 0; p < 20; p++ {
		gs, idx := b.At(p)
		again, _ := b.At(p)
		if gs != again || idx != -1 {
			t.Fatalf("pair %d: opening not reproducible", p)
		}
		g, err := rules.ParseGameString(gs)
		if err != nil || g.Ply() != 6 || g.State().IsOver() {
			t.Fatalf("pair %d: opening %q: ply %d, err %v", p, gs, g.Ply(), err)
		}
		seen[gs] = true
	}
	if len(seen) < 15 {
		t.Errorf("only %d distinct openings in 20 pairs", len(seen))
	}
	other, _ := Load(Config{RandomPlies: 6}, rules.BaseMLP, 43)
	if a, _ := b.At(0); func() string { s, _ := other.At(0); return s }() == a {
		t.Error("another seed gave the same first opening")
	}
}
