package render

import (
	"bytes"
	"path/filepath"
	"testing"

	"hivearbiter/elo"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/results"
)

// TestWarningCounts: warnings are counted by the engine they name in their Engine field, not
// by searching their text for "(name)": an engine whose name is in another's text, and a
// warning of an older record that names no engine, are not miscounted.
func TestWarningCounts(t *testing.T) {
	recs := []results.Record{
		{White: results.Player{Name: "a"}, Black: results.Player{Name: "b"}, Warnings: []results.Warning{
			{Side: "Black", Engine: "b", Text: "Black (b): says the game is over, as (a) did"},
			{Side: "White", Engine: "a", Text: "White (a): its budget was rounded"},
		}},
		{White: results.Player{Name: "b"}, Black: results.Player{Name: "a"}, Warnings: []results.Warning{
			{Side: "White", Engine: "b", Text: "White (b): its budget was rounded"},
			{Text: "Black (a): from an older record"},
		}},
	}
	if got, want := WarningCounts(recs), "Warnings in the records (anomalies that decided no game): a 1, b 2"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := WarningCounts(recs[:0]); got != "" {
		t.Errorf("no warnings: got %q", got)
	}
}

// TestWriteStats: the tables of arbiter stats for a records file, with an SPRT and the time
// table, against a golden file.
func TestWriteStats(t *testing.T) {
	recs, err := results.ReadFile(filepath.Join("..", "..", "report", "testdata", "hivebot.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	test := elo.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: elo.Normalized}
	var b bytes.Buffer
	summary, err := WriteStats(&b, recs, StatsOptions{Files: 1, SPRT: &test, Time: true})
	if err != nil {
		t.Fatal(err)
	}
	if summary.SPRT == nil || summary.SPRT.Pairs != 10 {
		t.Errorf("summary SPRT %+v, want one of 10 pairs", summary.SPRT)
	}
	golden.Check(t, filepath.Join("testdata", "stats.txt"), b.Bytes())
}
