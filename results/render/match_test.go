package render

import (
	"bytes"
	"strings"
	"testing"

	"hivearbiter/elo"
	"hivearbiter/results"
)

// TestMatchBlockGolden prints vector P1 of docs/reference/STATISTICS.md §3.7, whose fastchess
// block is given there: the golden file must equal it line for line.
func TestMatchBlockGolden(t *testing.T) {
	p := &results.PairingTally{First: "New", Second: "Base",
		Pairs: elo.PairCounts{LL: 100, LD: 1500, WL: 600, DD: 2400, WD: 1600, WW: 120}}
	p.WDL = p.Pairs.WDL()
	var buf bytes.Buffer
	WriteMatchBlock(&buf, p, MatchInfo{TimeControl: "10+0.1", GameType: "Base+MLP", Openings: "UHO_Lichess_4852_v1.epd",
		SPRT: &SPRTLine{LLR: 2.28238, Lower: -2.944439, Upper: 2.944439, Elo0: 0, Elo1: 5}})
	checkGolden(t, "match-block.txt", buf.Bytes())
}

func TestMatchBlockTrinomialWithoutPairs(t *testing.T) {
	p := &results.PairingTally{First: "A", Second: "B", WDL: elo.WDL{Wins: 60, Draws: 100, Losses: 40}}
	var buf bytes.Buffer
	WriteMatchBlock(&buf, p, MatchInfo{TimeControl: "st=1"})
	checkGolden(t, "match-block-trinomial.txt", buf.Bytes())
}

// TestMatchBlockWithoutSpread: a perfect score, or pairs that all score alike, print what
// happened instead of a clamped Elo with an error bar of zero.
func TestMatchBlockWithoutSpread(t *testing.T) {
	tests := []struct {
		name string
		p    results.PairingTally
		want string
	}{
		{"all won", results.PairingTally{WDL: elo.WDL{Wins: 4}, Pairs: elo.PairCounts{WW: 2}},
			"Elo: +inf, nElo: +inf (all 4 games won: no error bar without spread)"},
		{"all lost, unpaired", results.PairingTally{WDL: elo.WDL{Losses: 3}},
			"Elo: -inf, nElo: -inf (all 3 games lost: no error bar without spread)"},
		{"every pair split", results.PairingTally{WDL: elo.WDL{Wins: 3, Losses: 3}, Pairs: elo.PairCounts{WL: 3}},
			"Elo: 0.00, nElo: undefined (every result alike: no error bar without spread)"},
		// Two pairs: the 95% interval of the score passes 1, where Elo is infinite. The clamped
		// figure (633.86) was printed as if it were an estimate.
		{"too few games", results.PairingTally{WDL: elo.WDL{Wins: 3, Losses: 1}, Pairs: elo.PairCounts{WL: 1, WW: 1}},
			"Elo: 190.85 +/- inf, nElo: 245.67 +/- 340.48 (too few games for a finite Elo interval)"},
		{"spread", results.PairingTally{WDL: elo.WDL{Wins: 30, Losses: 10, Draws: 20}, Pairs: elo.PairCounts{WW: 10, WD: 5, DD: 5, WL: 5, LD: 5}},
			"Elo: 120.41 +/- 79.10, nElo: 148.15 +/- 87.91"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.p.First, tt.p.Second = "A", "B"
			var buf bytes.Buffer
			WriteMatchBlock(&buf, &tt.p, MatchInfo{})
			if !strings.Contains(buf.String(), "\n"+tt.want+"\n") {
				t.Errorf("block:\n%s\nwant the line %q", buf.String(), tt.want)
			}
		})
	}
}

// TestMatchBlockSPRTCounts: after an SPRT decided, games in flight still finish and are
// counted; the LLR line says which pairs its LLR is from and gives the LLR over all pairs
// shown (what arbiter stats -sprt computes), instead of a frozen LLR beside a later count.
func TestMatchBlockSPRTCounts(t *testing.T) {
	p := &results.PairingTally{First: "A", Second: "B", WDL: elo.WDL{Wins: 30, Draws: 20, Losses: 10}, Pairs: elo.PairCounts{WW: 10, WD: 5, DD: 5, WL: 5, LD: 5}}
	var buf bytes.Buffer
	WriteMatchBlock(&buf, p, MatchInfo{SPRT: &SPRTLine{LLR: 2.95, Lower: -2.94, Upper: 2.94, Elo1: 5, Pairs: 28, AllPairs: 30, AllLLR: 3.08}})
	want := "LLR: 2.95 (100.3%) (-2.94, 2.94) [0.00, 5.00] at the decision, after 28 pairs; 3.08 over all 30 pairs above\n"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("block:\n%s\nwant the line %q", buf.String(), want)
	}
}
