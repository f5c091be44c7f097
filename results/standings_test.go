package results

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
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

// TestTallyIsOrderFree adds the same records in many orders, as concurrent workers finish
// them: the counts, the pairs and the summary are the same, and a pair completes whichever of
// its games comes first.
func TestTallyIsOrderFree(t *testing.T) {
	var recs []Record
	results := []string{WhiteWins, Draw, BlackWins}
	for i := 0; i < 60; i++ {
		white, black := []string{"A", "B", "C"}[i%3], []string{"B", "C", "A"}[i%3]
		if i%2 == 1 {
			white, black = recs[i-1].Black.Name, recs[i-1].White.Name
		}
		recs = append(recs, game([]string{"r1", "r2"}[i/30], i, white, black, results[(i*7)%3], ReasonQueenSurrounded, ""))
	}
	recs = append(recs, game("r2", 60, "A", "B", WhiteWins, ReasonCrash, "Black")) // unpaired
	want := NewTally(recs, []string{"A", "B", "C"})
	var wantSummary bytes.Buffer
	if err := NewSummary("finished", want, nil).Write(&wantSummary); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		shuffled := slices.Clone(recs)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got := NewTally(nil, []string{"A", "B", "C"})
		for i := range shuffled {
			got.Add(&shuffled[i])
		}
		var summary bytes.Buffer
		if err := NewSummary("finished", got, nil).Write(&summary); err != nil {
			t.Fatal(err)
		}
		if summary.String() != wantSummary.String() {
			t.Fatalf("order %d gives another summary:\n%s\nwant:\n%s", trial, summary.String(), wantSummary.String())
		}
	}
	if got := want.Pairing("A", "B"); got.Unpaired != 1 || got.Pairs.Pentanomial().Pairs() != 10 {
		t.Errorf("A vs B: %d pairs, %d unpaired; want 10 and 1", got.Pairs.Pentanomial().Pairs(), got.Unpaired)
	}
	if want.Games != 61 || !slices.Equal(want.Runs, []string{"r1", "r2"}) {
		t.Errorf("games %d runs %v", want.Games, want.Runs)
	}
}

func TestSummaryGolden(t *testing.T) {
	var recs []Record
	add := func(white, black, result string, reason Reason, culprit string) {
		recs = append(recs, game("r1", len(recs), white, black, result, reason, culprit))
	}
	add("A", "B", WhiteWins, ReasonQueenSurrounded, "")
	add("B", "A", Draw, ReasonMoveLimit, "")
	add("A", "C", BlackWins, ReasonTimeForfeit, "White")
	add("C", "A", BlackWins, ReasonQueenSurrounded, "")
	add("B", "C", WhiteWins, ReasonQueenSurrounded, "")
	add("C", "B", Draw, ReasonRepetition, "")
	tally := NewTally(recs, []string{"A", "B", "C"})
	sprt := &SPRTSummary{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "normalized", LLR: 0.1, Lower: -2.94, Upper: 2.94, Decision: "continue", Pairs: 1}
	var buf bytes.Buffer
	if err := NewSummary("finished", tally, sprt).Write(&buf); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "summary.json", buf.Bytes())
}

// TestSummaryInfiniteEstimates: a perfect or a zero score has no finite Elo. The JSON must say
// so (null and a flag) rather than write a clamped ±1199.8 and a normalized Elo of 0, which a
// script reads as "equal".
func TestSummaryInfiniteEstimates(t *testing.T) {
	var recs []Record
	for i := 0; i < 4; i++ {
		recs = append(recs, game("r", 2*i, "strong", "weak", WhiteWins, ReasonQueenSurrounded, ""))
		recs = append(recs, game("r", 2*i+1, "weak", "strong", BlackWins, ReasonQueenSurrounded, ""))
	}
	for i := range recs {
		recs[i].Pair = i / 2
	}
	for _, order := range [][]string{{"strong", "weak"}, {"weak", "strong"}} {
		var buf bytes.Buffer
		if err := NewSummary("finished", NewTally(recs, order), nil).Write(&buf); err != nil {
			t.Fatal(err)
		}
		var s struct {
			Pairings []map[string]any `json:"pairings"`
		}
		if err := json.Unmarshal(buf.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		p := s.Pairings[0]
		wantFlag, wantInf := "all-won", 1.0
		if order[0] == "weak" {
			wantFlag, wantInf = "all-lost", -1.0
		}
		if p["estimate"] != wantFlag || p["elo_infinity"] != wantInf {
			t.Errorf("%v first: estimate %v, elo_infinity %v; want %q, %v", order[0], p["estimate"], p["elo_infinity"], wantFlag, wantInf)
		}
		for _, k := range []string{"elo", "elo_error", "nelo", "nelo_error"} {
			if v, ok := p[k]; !ok || v != nil {
				t.Errorf("%v first: %s = %v, want null", order[0], k, v)
			}
		}
	}
}

// TestRatingErrorNamesPlayers: when the field has no finite ratings, the message names the
// players, not elo's indices.
func TestRatingErrorNamesPlayers(t *testing.T) {
	recs := []Record{game("r", 0, "a", "b", Draw, ReasonMoveLimit, ""), game("r", 1, "c", "d", Draw, ReasonMoveLimit, "")}
	_, err := FitRatings(NewTally(recs, nil))
	if err == nil || err.Error() != "results: no finite ratings for c, d: not connected by games to a" {
		t.Errorf("err = %v", err)
	}
}

// TestFaultReasons: the games lost by misbehaviour are named by player and reason, with counts.
func TestFaultReasons(t *testing.T) {
	game := func(n int, culprit string, reason Reason) Record {
		return Record{Run: "r", Game: n, Pair: n / 2, White: Player{Name: "a"}, Black: Player{Name: "b"}, Result: WhiteWins, Reason: reason, Culprit: culprit}
	}
	tally := NewTally([]Record{game(0, "Black", ReasonCrash), game(1, "Black", ReasonTimeForfeit), game(2, "Black", ReasonCrash),
		game(3, "White", ReasonIllegalMove), game(4, "", ReasonQueenSurrounded)}, []string{"a", "b"})
	if got, want := tally.FaultReasons(), "a 1 by illegal-move, b 2 by crash, b 1 by time-forfeit"; got != want {
		t.Errorf("FaultReasons = %q, want %q", got, want)
	}
}
