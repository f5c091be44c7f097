package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/elo"
	"hivearbiter/results"
)

// TestWriteRecordsFile: records files give a report titled after their engines, and an SPRT
// of records of other than two engines is refused before anything is written.
func TestWriteRecordsFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report.html")
	d, err := WriteRecordsFile(out, []string{filepath.Join("testdata", "hivebot.jsonl")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Title != strings.Join(d.Engines, " vs ") || len(d.Engines) != 2 || d.Games == 0 {
		t.Errorf("report %q of %v, %d games", d.Title, d.Engines, d.Games)
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
	field := filepath.Join(dir, "field.jsonl")
	var b bytes.Buffer
	for i, players := range [][2]string{{"a", "b"}, {"b", "c"}} {
		json.NewEncoder(&b).Encode(results.Record{Schema: results.SchemaVersion, Run: "r", Game: i, Pair: i, GameType: "Base+MLP",
			White: results.Player{Name: players[0]}, Black: results.Player{Name: players[1]}, Result: results.Draw, Reason: results.ReasonRepetition})
	}
	if err := os.WriteFile(field, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	test := elo.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: elo.Normalized}
	if _, err := WriteRecordsFile(filepath.Join(dir, "sprt.html"), []string{field}, Options{SPRT: &test}); !errors.Is(err, ErrSPRTEngines) {
		t.Errorf("an SPRT of 3 engines: %v, want ErrSPRTEngines", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sprt.html")); err == nil {
		t.Error("a refused report was written")
	}
}
