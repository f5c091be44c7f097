package openings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/rules"
)

// FuzzLoad feeds opening files, as GameString lines with comments or as PGN, to
// Load. A file is either refused with an Error, or every opening it hands out is
// a game of the run's type that is not over, and the lines it keeps load again unchanged.
func FuzzLoad(f *testing.F) {
	f.Add([]byte("# a book\nBase;NotStarted;White[1];wS1 # eval 0\n\nBase;InProgress;White[2];wS1;bS1 wS1-\n"), false, uint8(0))
	f.Add([]byte("Base;InProgress;White[2];wS1;bS1 wS1-\nBase;InProgress;White[2];wS1;bS1 -wS1\n"), false, uint8(0))
	f.Add([]byte("[GameType \"Base+M\"]\n[Result \"InProgress\"]\n\n1. wM\n2. bS1 wM-\n"), true, uint8(1))
	f.Add([]byte("\ufeffBase;InProgress;White[2];wS1;wS2\n"), false, uint8(0))
	if book, err := ReadBook("base+mlp"); err == nil {
		lines := strings.SplitN(string(book), "\n", 12)
		f.Add([]byte(strings.Join(lines[:len(lines)-1], "\n")), false, uint8(7))
	}
	types := rules.GameTypes
	f.Fuzz(func(t *testing.T, data []byte, pgn bool, typ uint8) {
		gameType := types[int(typ)%len(types)]
		name := "book.txt"
		if pgn {
			name = "book.pgn"
		}
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := Load(Config{File: path, Order: "random"}, gameType, 1)
		if err != nil {
			var oe *Error
			if !errors.As(err, &oe) || oe.Error() == "" {
				t.Fatalf("err = %v (%T), want an openings.Error with a message", err, err)
			}
			return
		}
		if b.Len() == 0 {
			t.Fatal("a book was loaded without an opening")
		}
		for p := 0; p < b.Len(); p++ {
			gs, i := b.At(p)
			if i < 0 || i >= b.Len() {
				t.Fatalf("pair %d: index %d of %d", p, i, b.Len())
			}
			g, err := rules.ParseGameString(gs)
			if err != nil {
				t.Fatalf("pair %d: the opening %q does not load: %v", p, gs, err)
			}
			if g.GameType() != gameType || g.State().IsOver() {
				t.Fatalf("pair %d: opening %q is %s, %s; the run plays %s", p, gs, g.GameType(), g.State(), gameType)
			}
		}
		for _, w := range b.Warnings() {
			if !strings.HasPrefix(w, "openings ") {
				t.Errorf("warning %q does not name the openings", w)
			}
		}
		again := filepath.Join(t.TempDir(), "again.txt")
		if err := os.WriteFile(again, []byte(strings.Join(b.lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		b2, err := Load(Config{File: again}, gameType, 1)
		if err != nil {
			t.Fatalf("the normalized lines do not load again: %v", err)
		}
		if strings.Join(b2.lines, "\n") != strings.Join(b.lines, "\n") {
			t.Fatalf("the normalized lines changed when loaded again:\n%q\n%q", b.lines, b2.lines)
		}
	})
}
