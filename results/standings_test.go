package results

import (
	"bytes"
	"testing"

	"hivearbiter/elo"
)

// game builds a record of a game of a pair.
func game(run string, idx int, white, black, result string, reason Reason, culprit string) Record {
	return Record{Schema: SchemaVersion, Run: run, Game: idx, Pair: idx / 2, White: Player{Name: white}, Black: Player{Name: black},
		Result: result, Reason: reason, Culprit: culprit}
}

func TestTallyPairsAndFaults(t *testing.T) {
	recs := []Record{
		game("r", 0, "A", "B", WhiteWins, ReasonQueenSurrounded, ""),
		game("r", 1, "B", "A", WhiteWins, ReasonTimeForfeit, "Black"), // A loses on time: pair WL
		game("r", 2, "A", "B", Draw, ReasonRepetition, ""),
		game("r", 3, "B", "A", BlackWins, ReasonQueenSurrounded, ""), // pair WD for A
		game("r", 4, "A", "C", BlackWins, ReasonCrash, "White"),      // unpaired
	}
	tally := NewTally(recs, []string{"A", "B", "C"})
	ab := tally.Pairing("A", "B")
	if ab.WDL != (elo.WDL{Wins: 2, Draws: 1, Losses: 1}) || ab.Pairs != (elo.PairCounts{WL: 1, WD: 1}) || ab.Unpaired != 0 {
		t.Errorf("A vs B = %+v", ab)
	}
	ba := tally.Pairing("B", "A")
	if ba.WDL != (elo.WDL{Wins: 1, Draws: 1, Losses: 2}) || ba.Pairs != (elo.PairCounts{WL: 1, LD: 1}) {
		t.Errorf("B vs A = %+v", ba)
	}
	if ac := tally.Pairing("A", "C"); ac.Unpaired != 1 || ac.Pairs.Pentanomial().Pairs() != 0 {
		t.Errorf("A vs C = %+v", ac)
	}
	a := tally.Player("A")
	if a.WDL != (elo.WDL{Wins: 2, Draws: 1, Losses: 2}) || a.Faults[ReasonTimeForfeit] != 1 || a.Faults[ReasonCrash] != 1 || a.FaultTotal() != 2 {
		t.Errorf("A = %+v", a)
	}
	if tally.Player("B").FaultTotal() != 0 || tally.Pairing("B", "C") != nil {
		t.Error("faults or pairings invented")
	}
}

// TestMatchBlockGolden prints vector P1 of STATISTICS.md §3.7, whose fastchess block is given
// there: the golden file must equal it line for line.
func TestMatchBlockGolden(t *testing.T) {
	p := &PairingTally{First: "New", Second: "Base",
		Pairs: elo.PairCounts{LL: 100, LD: 1500, WL: 600, DD: 2400, WD: 1600, WW: 120}}
	p.WDL = p.Pairs.WDL()
	var buf bytes.Buffer
	WriteMatchBlock(&buf, p, MatchInfo{TimeControl: "10+0.1", GameType: "Base+MLP", Openings: "UHO_Lichess_4852_v1.epd",
		SPRT: &SPRTLine{LLR: 2.28238, Lower: -2.944439, Upper: 2.944439, Elo0: 0, Elo1: 5}})
	golden(t, "match-block.txt", buf.Bytes())
}

func TestMatchBlockTrinomialWithoutPairs(t *testing.T) {
	p := &PairingTally{First: "A", Second: "B", WDL: elo.WDL{Wins: 60, Draws: 100, Losses: 40}}
	var buf bytes.Buffer
	WriteMatchBlock(&buf, p, MatchInfo{TimeControl: "st=1"})
	golden(t, "match-block-trinomial.txt", buf.Bytes())
}

func TestTablesGolden(t *testing.T) {
	var recs []Record
	add := func(white, black, result string, reason Reason, culprit string) {
		recs = append(recs, game("r", len(recs), white, black, result, reason, culprit))
	}
	for round := 0; round < 2; round++ {
		add("strong", "weak", WhiteWins, ReasonQueenSurrounded, "")
		add("weak", "strong", BlackWins, ReasonQueenSurrounded, "")
		add("strong", "medium", Draw, ReasonMoveLimit, "")
		add("medium", "strong", BlackWins, ReasonTimeForfeit, "White")
		add("medium", "weak", WhiteWins, ReasonIllegalMove, "Black")
		add("weak", "medium", Draw, ReasonRepetition, "")
	}
	tally := NewTally(recs, []string{"strong", "medium", "weak"})
	var buf bytes.Buffer
	if err := WriteFieldTable(&buf, tally); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("\n")
	if err := WriteFaults(&buf, tally); err != nil {
		t.Fatal(err)
	}
	golden(t, "tables.txt", buf.Bytes())
}
