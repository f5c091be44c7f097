package report

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/elo"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/results"
	"hivearbiter/results/render"
)

// goldenData compares a page's data, indented, with a golden file in testdata.
func goldenData(t *testing.T, name string, d *Data) {
	t.Helper()
	b, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", name), append(b, '\n'))
}

var sprtTest = &elo.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: elo.Normalized}

// TestMatchDataGolden is the data of a two-engine match: one engine on a fixed time per move,
// the other on a clock, with an SPRT, a time forfeit and a record whose last move is not legal.
func TestMatchDataGolden(t *testing.T) {
	recs := synthetic{engines: []string{"new", "old"}, games: 8, minPlies: 6, maxPlies: 14, times: []string{"st=0.2", "10+0.1"}}.
		records(rand.New(rand.NewPCG(7, 7)))
	recs[5].Moves = append(recs[5].Moves, results.Move{Move: "wQ bZ9", Millis: 5})
	d := Build(recs, Options{Title: "new vs old", SPRT: sprtTest})
	if !strings.Contains(d.List[5].Error, "wQ bZ9") {
		t.Errorf("game 5: error %q, want one naming the bad move", d.List[5].Error)
	}
	if n := len(d.Progress.SPRT.LLR); n != 4 {
		t.Errorf("%d LLR points, want one per game pair (4)", n)
	}
	goldenData(t, "match.json", d)
}

// TestFieldDataGolden is the data of a round robin of three engines, all on a clock.
func TestFieldDataGolden(t *testing.T) {
	recs := synthetic{engines: []string{"a", "b", "c"}, games: 12, minPlies: 4, maxPlies: 8, times: []string{"5+0.1"}}.
		records(rand.New(rand.NewPCG(3, 3)))
	d := Build(recs, Options{Engines: []string{"c", "b", "a"}})
	if len(d.Progress.Elo) != 3 {
		t.Errorf("%d Elo curves, want one per engine", len(d.Progress.Elo))
	}
	// The page shows the console's cross table, from the same function.
	var cross strings.Builder
	if err := render.WriteCrossTable(&cross, results.NewTally(recs, []string{"c", "b", "a"}).CrossTable()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cross.String(), "| Rank | Name | Score |") || !strings.Contains(d.Tables, cross.String()) {
		t.Errorf("the tables lack the cross table\n%s\ntables:\n%s", cross.String(), d.Tables)
	}
	goldenData(t, "field.json", d)
}

// TestProgressInScheduleOrder checks that the curves count pairs in schedule order whatever
// the order of the records, and skip games whose partner is missing.
func TestProgressInScheduleOrder(t *testing.T) {
	recs := synthetic{engines: []string{"x", "y"}, games: 10, minPlies: 2, maxPlies: 4, times: []string{"st=1"}}.
		records(rand.New(rand.NewPCG(1, 1)))
	order := Options{Engines: []string{"x", "y"}, SPRT: sprtTest}
	want := Build(recs[:8], order).Progress
	shuffled := []results.Record{recs[7], recs[2], recs[9], recs[0], recs[5], recs[1], recs[6], recs[3], recs[4]}
	got := Build(shuffled, order).Progress
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(got)
	if !bytes.Equal(w, g) {
		t.Errorf("shuffled records with one unpaired game:\n%s\nwant\n%s", g, w)
	}
}

// TestProgressWithoutPairs counts games when the games are not played in pairs (-games 1).
func TestProgressWithoutPairs(t *testing.T) {
	recs := synthetic{engines: []string{"x", "y"}, games: 6, minPlies: 2, maxPlies: 4, times: []string{"st=1"}}.
		records(rand.New(rand.NewPCG(1, 1)))
	for i := range recs {
		recs[i].Pair = i
	}
	p := Build(recs, Options{SPRT: sprtTest}).Progress
	if p.Unit != "games" || len(p.Elo[0].Elo) != 6 || len(p.SPRT.LLR) != 6 {
		t.Errorf("unit %q, %d Elo and %d LLR points; want 6 games", p.Unit, len(p.Elo[0].Elo), len(p.SPRT.LLR))
	}
}

func TestNumJSON(t *testing.T) {
	for _, tc := range []struct {
		n    num
		want string
	}{{1.234, "1.23"}, {-0.001, "0"}, {2, "2"}, {0.5, "0.5"}, {null, "null"}, {-12.005, "-12.01"}} {
		b, _ := json.Marshal(tc.n)
		if string(b) != tc.want {
			t.Errorf("%v: %s, want %s", float64(tc.n), b, tc.want)
		}
	}
}
