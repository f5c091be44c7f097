package render

import (
	"bytes"
	"strings"
	"testing"

	"hivearbiter/results"
)

func TestTablesGolden(t *testing.T) {
	var recs []results.Record
	add := func(white, black, result string, reason results.Reason, culprit string) {
		recs = append(recs, game("r", len(recs), white, black, result, reason, culprit))
	}
	for round := 0; round < 2; round++ {
		add("strong", "weak", results.WhiteWins, results.ReasonQueenSurrounded, "")
		add("weak", "strong", results.BlackWins, results.ReasonQueenSurrounded, "")
		add("strong", "medium", results.Draw, results.ReasonMoveLimit, "")
		add("medium", "strong", results.BlackWins, results.ReasonTimeForfeit, "White")
		add("medium", "weak", results.WhiteWins, results.ReasonIllegalMove, "Black")
		add("weak", "medium", results.Draw, results.ReasonRepetition, "")
	}
	tally := results.NewTally(recs, []string{"strong", "medium", "weak"})
	var buf bytes.Buffer
	if err := WriteFieldTable(&buf, tally); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("\n")
	if err := WriteFaults(&buf, tally); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "tables.txt", buf.Bytes())
}

func TestRatingTableGolden(t *testing.T) {
	// The 4-player round robin of docs/reference/STATISTICS.md §3.7, 100 games per pair, half
	// with each colour: the maximum-likelihood ratings are P1 +112.58, P2 +18.04, P3 -27.62,
	// P4 -103.00.
	points := map[[2]string]int{{"P1", "P2"}: 60, {"P1", "P3"}: 70, {"P1", "P4"}: 80, {"P2", "P3"}: 55, {"P2", "P4"}: 65, {"P3", "P4"}: 60}
	var recs []results.Record
	for _, pair := range [][2]string{{"P1", "P2"}, {"P1", "P3"}, {"P1", "P4"}, {"P2", "P3"}, {"P2", "P4"}, {"P3", "P4"}} {
		wins := points[pair]
		for g := 0; g < 100; g++ {
			white, black := pair[0], pair[1]
			if g%2 == 1 {
				white, black = black, white
			}
			result := results.BlackWins
			if (g < wins) == (white == pair[0]) {
				result = results.WhiteWins
			}
			recs = append(recs, game("r", len(recs), white, black, result, results.ReasonQueenSurrounded, ""))
		}
	}
	tally := results.NewTally(recs, []string{"P1", "P2", "P3", "P4"})
	r, err := results.FitRatings(tally)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{112.58, 18.04, -27.62, -103.00}
	for i, w := range want {
		if d := r.Elo[i] - w; d > 0.6 || d < -0.6 {
			t.Errorf("%s rating %.2f, want %.2f", tally.Players[i].Name, r.Elo[i], w)
		}
	}
	var buf bytes.Buffer
	if err := WriteRatingTable(&buf, tally, r); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "ratings.txt", buf.Bytes())
}

// TestFieldTableInfiniteEstimates: a player who lost every game shows -inf, not -1199.8.
func TestFieldTableInfiniteEstimates(t *testing.T) {
	var recs []results.Record
	for i, pair := range [][2]string{{"a", "c"}, {"c", "a"}, {"b", "c"}, {"c", "b"}, {"a", "b"}, {"b", "a"}} {
		result := results.WhiteWins
		if pair[0] == "c" || pair[0] == "b" && pair[1] == "a" {
			result = results.BlackWins
		}
		r := game("r", i, pair[0], pair[1], result, results.ReasonQueenSurrounded, "")
		r.Pair = i / 2
		recs = append(recs, r)
	}
	var buf bytes.Buffer
	if err := WriteFieldTable(&buf, results.NewTally(recs, nil)); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.Contains(line, "|    c |") {
			if !strings.Contains(line, "-inf") || strings.Contains(line, "1199") {
				t.Errorf("c lost every game: %q", line)
			}
		}
	}
}

// TestRatingTableSaysVirtualDraws: the ratings of a field where an engine lost every game are
// finite only by a prior (virtual draws); the table and the JSON must say so.
func TestRatingTableSaysVirtualDraws(t *testing.T) {
	var recs []results.Record
	for i, pair := range [][2]string{{"a", "c"}, {"c", "a"}, {"b", "c"}, {"c", "b"}, {"a", "b"}, {"b", "a"}} {
		result := results.Draw
		if pair[0] == "c" {
			result = results.BlackWins
		} else if pair[1] == "c" {
			result = results.WhiteWins
		}
		recs = append(recs, game("r", i, pair[0], pair[1], result, results.ReasonQueenSurrounded, ""))
	}
	tally := results.NewTally(recs, nil)
	r, err := results.FitRatings(tally)
	if err != nil || r.VirtualDraws != 1 {
		t.Fatalf("FitRatings: %v, %v virtual draws", err, r.VirtualDraws)
	}
	var buf bytes.Buffer
	if err := WriteRatingTable(&buf, tally, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "1 virtual draw(s) per pairing") {
		t.Errorf("the table does not say the ratings rest on virtual draws:\n%s", buf.String())
	}
	if s := results.NewSummary("records", tally, nil); s.Ratings == nil || s.Ratings.VirtualDraws != 1 {
		t.Errorf("summary ratings: %+v", s.Ratings)
	}
}

// TestVirtualDrawNoteIsTrue: a and b beat c and d in every game between the two groups and
// drew among themselves and each won a game within its group, so no engine won or lost every
// game, yet c and d never scored a point against the others. The note must name them and say that,
// not that an engine won or lost every game.
func TestVirtualDrawNoteIsTrue(t *testing.T) {
	var recs []results.Record
	add := func(white, black, result string) {
		recs = append(recs, game("r", len(recs), white, black, result, results.ReasonQueenSurrounded, ""))
	}
	for _, top := range []string{"a", "b"} {
		for _, bottom := range []string{"c", "d"} {
			add(top, bottom, results.WhiteWins)
			add(bottom, top, results.BlackWins)
		}
	}
	add("a", "b", results.WhiteWins)
	add("b", "a", results.WhiteWins)
	add("c", "d", results.WhiteWins)
	add("d", "c", results.WhiteWins)
	tally := results.NewTally(recs, nil)
	r, err := results.FitRatings(tally)
	if err != nil || r.VirtualDraws != 1 {
		t.Fatalf("FitRatings: %v, %v virtual draws", err, r.VirtualDraws)
	}
	var buf bytes.Buffer
	if err := WriteRatingTable(&buf, tally, r); err != nil {
		t.Fatal(err)
	}
	want := "(c, d never scored a point against the other players: 1 virtual draw(s) per pairing"
	if !strings.Contains(buf.String(), want) || strings.Contains(buf.String(), "every game") {
		t.Errorf("the note is not true of the games:\n%s\nwant %q", buf.String(), want)
	}
}
