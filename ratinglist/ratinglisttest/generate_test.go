package ratinglisttest

import (
	"math"
	"reflect"
	"testing"

	"hivearbiter/ratinglist"
)

// TestSynthetic: the same seed gives the same games, every game is the list's, and the
// ratings fitted to them find the White advantage the games were drawn with and rate every
// entrant.
func TestSynthetic(t *testing.T) {
	l, recs := Synthetic(8, 4000, 7)
	_, again := Synthetic(8, 4000, 7)
	if !reflect.DeepEqual(recs, again) {
		t.Fatal("the same seed gave other games")
	}
	table, err := ratinglist.Compute(l, recs)
	if err != nil {
		t.Fatal(err)
	}
	if table.Games != len(recs) || table.Rated >= table.Games || table.Rated < table.Games*99/100 {
		t.Errorf("%d games, %d rated: want all but a few time forfeits", table.Games, table.Rated)
	}
	for _, r := range table.Rows {
		if !r.Rated || r.First.IsZero() {
			t.Errorf("%s: rated %v, first game %v", r.Player, r.Rated, r.First)
		}
	}
	if d := table.WhiteAdvantage - whiteAdvantage; math.Abs(d) > 3*table.WhiteAdvantageError/1.96+5 {
		t.Errorf("White advantage fitted %.1f ± %.1f, drawn with %d", table.WhiteAdvantage, table.WhiteAdvantageError, whiteAdvantage)
	}
}
