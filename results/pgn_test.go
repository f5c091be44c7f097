package results

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/testkit/golden"
)

// checkGolden compares output with the golden file testdata/name.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func TestWritePGNGolden(t *testing.T) {
	r := sampleRecord(4)
	var buf bytes.Buffer
	if err := WritePGN(&buf, &r, PGNOptions{Event: "Test event"}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "game.pgn", buf.Bytes())
}

func TestPGNRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	for i := 0; i < 3; i++ {
		r := sampleRecord(i)
		if i == 1 {
			r.Opening = "Base;NotStarted;White[1]"
			r.White.Time = "st=1"
		}
		WritePGN(&buf, &r, PGNOptions{})
	}
	games, err := ParsePGN(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 3 {
		t.Fatalf("read %d games, want 3", len(games))
	}
	g := games[0]
	if got, want := strings.Join(g.Moves, ";"), "wS1;bS1 wS1-;wQ -wS1"; got != want {
		t.Errorf("moves = %q, want %q", got, want)
	}
	if g.Result != WhiteWins || g.Tags["White"] != "alpha" || g.Tags["Round"] != "1" || g.Tags["TimeControl"] != "10+0.1" {
		t.Errorf("game = %+v", g)
	}
	if got := games[1].GameString(); got != "Base;NotStarted;White[1];bS1 wS1-;wQ -wS1" {
		t.Errorf("GameString = %q", got)
	}
	if games[1].Tags["WhiteTimeControl"] != "st=1" || games[1].Tags["BlackTimeControl"] != "10+0.1" {
		t.Errorf("per-side time controls lost: %v", games[1].Tags)
	}
}

func TestParsePGNMzingaStyle(t *testing.T) {
	// As MzingaViewer saves a game: multi-line comments, no blank line before the result.
	in := "[GameType \"Base+M\"]\n[Date \"2024.01.02\"]\n[Event \"\"]\n[Site \"\"]\n[Round \"\"]\n" +
		"[White \"\"]\n[Black \"\"]\n[Result \"InProgress\"]\n\n{opening\ncomment}\n1. wM\n{nice}\n2. bS1 wM-\n"
	games, err := ParsePGN(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 || games[0].GameType() != "Base+M" || len(games[0].Moves) != 2 || games[0].Result != "InProgress" {
		t.Fatalf("games = %+v", games)
	}
}

func TestParsePGNErrors(t *testing.T) {
	for _, in := range []string{"[GameType \"Base\"\n", "[]\n", "12.\n"} {
		if _, err := ParsePGN(strings.NewReader(in)); err == nil {
			t.Errorf("ParsePGN(%q) accepted malformed input", in)
		}
	}
}

func FuzzParsePGN(f *testing.F) {
	var buf bytes.Buffer
	r := sampleRecord(0)
	WritePGN(&buf, &r, PGNOptions{})
	f.Add(buf.String())
	f.Add("[Result \"Draw\"]\n1. wS1\n{x\n")
	f.Fuzz(func(t *testing.T, in string) {
		games, err := ParsePGN(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, g := range games {
			for _, m := range g.Moves {
				if m == "" || strings.Contains(m, "\n") {
					t.Fatalf("empty or multi-line move %q", m)
				}
			}
		}
	})
}

// TestAppendSeconds: a ply's thinking time is written as fmt's %.3f writes it.
func TestAppendSeconds(t *testing.T) {
	for _, ms := range []int64{0, 1, 9, 10, 99, 100, 999, 1000, 1001, 12345, 60000, 1<<40 + 7, -1, -1500} {
		if got, want := string(appendSeconds(nil, ms)), fmt.Sprintf("%.3f", float64(ms)/1000); got != want {
			t.Errorf("appendSeconds(%d) = %q, want %q", ms, got, want)
		}
	}
}
