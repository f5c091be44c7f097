package render

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"hivearbiter/internal/testkit/golden"
	"hivearbiter/results"
)

// game builds a record of a game of a pair.
func game(run string, idx int, white, black, result string, reason results.Reason, culprit string) results.Record {
	return results.Record{Schema: results.SchemaVersion, Run: run, Game: idx, Pair: idx / 2, White: results.Player{Name: white}, Black: results.Player{Name: black},
		Result: result, Reason: reason, Culprit: culprit}
}

// checkGolden compares output with the golden file testdata/name.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

// crossRecords are a round robin of three players, twice over, and a fourth that met only the
// strongest: its cells against the others say they never met.
func crossRecords() []results.Record {
	var recs []results.Record
	add := func(white, black, result string) {
		recs = append(recs, game("r", len(recs), white, black, result, results.ReasonQueenSurrounded, ""))
	}
	for round := 0; round < 2; round++ {
		add("strong", "weak", results.WhiteWins)
		add("weak", "strong", results.BlackWins)
		add("strong", "medium", results.Draw)
		add("medium", "strong", results.BlackWins)
		add("medium", "weak", results.WhiteWins)
		add("weak", "medium", results.Draw)
	}
	add("newcomer", "strong", results.WhiteWins)
	add("strong", "newcomer", results.Draw)
	return recs
}

func TestCrossTableGolden(t *testing.T) {
	tally := results.NewTally(crossRecords(), []string{"weak", "medium", "strong", "newcomer"})
	var buf bytes.Buffer
	if err := WriteCrossTable(&buf, tally.CrossTable()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "crosstable.txt", buf.Bytes())
}

// The cross table of a summary is the cross table of the tally it summarises: the console and
// the job summary show the same table.
func TestCrossTableOfSummary(t *testing.T) {
	tally := results.NewTally(crossRecords(), nil)
	if got, want := results.NewSummary("records", tally, nil).CrossTable(), tally.CrossTable(); !reflect.DeepEqual(got, want) {
		t.Errorf("the summary's cross table\n%+v\nthe tally's\n%+v", got, want)
	}
}

// Two players have no cross table: their result block says it all.
func TestCrossTableOfTwo(t *testing.T) {
	var buf bytes.Buffer
	tally := results.NewTally([]results.Record{game("r", 0, "a", "b", results.WhiteWins, results.ReasonQueenSurrounded, "")}, nil)
	if err := WriteCrossTable(&buf, tally.CrossTable()); err != nil || buf.Len() > 0 {
		t.Errorf("%v: %q", err, buf.String())
	}
}

// The cross table that docs/statistics.md shows is this package's golden one, as it prints.
func TestCrossTableInTheDocs(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("testdata", "crosstable.txt"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join("..", "..", "docs", "statistics.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, golden) {
		t.Errorf("docs/statistics.md does not show the cross table of testdata/crosstable.txt:\n%s", golden)
	}
}
