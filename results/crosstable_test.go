package results

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// crossRecords are a round robin of three players, twice over, and a fourth that met only the
// strongest: its cells against the others say they never met.
func crossRecords() []Record {
	var recs []Record
	add := func(white, black, result string) {
		recs = append(recs, game("r", len(recs), white, black, result, ReasonQueenSurrounded, ""))
	}
	for round := 0; round < 2; round++ {
		add("strong", "weak", WhiteWins)
		add("weak", "strong", BlackWins)
		add("strong", "medium", Draw)
		add("medium", "strong", BlackWins)
		add("medium", "weak", WhiteWins)
		add("weak", "medium", Draw)
	}
	add("newcomer", "strong", WhiteWins)
	add("strong", "newcomer", Draw)
	return recs
}

func TestCrossTableGolden(t *testing.T) {
	tally := NewTally(crossRecords(), []string{"weak", "medium", "strong", "newcomer"})
	var buf bytes.Buffer
	if err := WriteCrossTable(&buf, tally.CrossTable()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "crosstable.txt", buf.Bytes())
}

// The cross table of a summary is the cross table of the tally it summarises: the console and
// the job summary show the same table.
func TestCrossTableOfSummary(t *testing.T) {
	tally := NewTally(crossRecords(), nil)
	if got, want := NewSummary("records", tally, nil).CrossTable(), tally.CrossTable(); !reflect.DeepEqual(got, want) {
		t.Errorf("the summary's cross table\n%+v\nthe tally's\n%+v", got, want)
	}
}

// Two players have no cross table: their result block says it all.
func TestCrossTableOfTwo(t *testing.T) {
	var buf bytes.Buffer
	tally := NewTally([]Record{game("r", 0, "a", "b", WhiteWins, ReasonQueenSurrounded, "")}, nil)
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
	page, err := os.ReadFile(filepath.Join("..", "docs", "statistics.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, golden) {
		t.Errorf("docs/statistics.md does not show the cross table of testdata/crosstable.txt:\n%s", golden)
	}
}
