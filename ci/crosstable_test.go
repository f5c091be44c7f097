package ci

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/testkit/golden"
	"hivearbiter/results"
)

// TestWriteMarkdownCrossTable keeps the job summary of a field of four engines (a golden file):
// after the result blocks, who beat whom, as the console's cross table says it, with "-" for
// two engines that never met.
func TestWriteMarkdownCrossTable(t *testing.T) {
	var recs []results.Record
	add := func(white, black, result string) {
		recs = append(recs, results.Record{Run: "r", Game: len(recs), Pair: len(recs) / 2, White: results.Player{Name: white},
			Black: results.Player{Name: black}, Result: result, Reason: results.ReasonQueenSurrounded})
	}
	for round := 0; round < 2; round++ {
		add("strong", "weak", results.WhiteWins)
		add("weak", "strong", results.BlackWins)
		add("strong", "medium", results.Draw)
		add("medium", "strong", results.BlackWins)
		add("medium", "weak", results.WhiteWins)
		add("weak", "medium", results.Draw)
	}
	add("new|comer", "strong", results.WhiteWins)
	add("strong", "new|comer", results.Draw)
	summary := results.NewSummary("finished", results.NewTally(recs, []string{"weak", "medium", "strong", "new|comer"}), nil)
	g := Gate{Name: "tournament", Summary: summary, Verdict: Verdict{Passed: true, Decision: "finished", Reason: "the tournament finished"}}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, g); err != nil {
		t.Fatal(err)
	}
	checkTables(t, b.String())
	if !strings.Contains(b.String(), "**Cross table:**") {
		t.Errorf("no cross table:\n%s", b.String())
	}
	golden.Check(t, filepath.Join("testdata", "summary-field.md"), b.Bytes())
}
