package results

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
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

// TestMatchBlockGolden prints vector P1 of docs/reference/STATISTICS.md §3.7, whose fastchess
// block is given there: the golden file must equal it line for line.
func TestMatchBlockGolden(t *testing.T) {
	p := &PairingTally{First: "New", Second: "Base",
		Pairs: elo.PairCounts{LL: 100, LD: 1500, WL: 600, DD: 2400, WD: 1600, WW: 120}}
	p.WDL = p.Pairs.WDL()
	var buf bytes.Buffer
	WriteMatchBlock(&buf, p, MatchInfo{TimeControl: "10+0.1", GameType: "Base+MLP", Openings: "UHO_Lichess_4852_v1.epd",
		SPRT: &SPRTLine{LLR: 2.28238, Lower: -2.944439, Upper: 2.944439, Elo0: 0, Elo1: 5}})
	checkGolden(t, "match-block.txt", buf.Bytes())
}

func TestMatchBlockTrinomialWithoutPairs(t *testing.T) {
	p := &PairingTally{First: "A", Second: "B", WDL: elo.WDL{Wins: 60, Draws: 100, Losses: 40}}
	var buf bytes.Buffer
	WriteMatchBlock(&buf, p, MatchInfo{TimeControl: "st=1"})
	checkGolden(t, "match-block-trinomial.txt", buf.Bytes())
}

// TestMatchBlockWithoutSpread: a perfect score, or pairs that all score alike, print what
// happened instead of a clamped Elo with an error bar of zero.
func TestMatchBlockWithoutSpread(t *testing.T) {
	tests := []struct {
		name string
		p    PairingTally
		want string
	}{
		{"all won", PairingTally{WDL: elo.WDL{Wins: 4}, Pairs: elo.PairCounts{WW: 2}},
			"Elo: +inf, nElo: +inf (all 4 games won: no error bar without spread)"},
		{"all lost, unpaired", PairingTally{WDL: elo.WDL{Losses: 3}},
			"Elo: -inf, nElo: -inf (all 3 games lost: no error bar without spread)"},
		{"every pair split", PairingTally{WDL: elo.WDL{Wins: 3, Losses: 3}, Pairs: elo.PairCounts{WL: 3}},
			"Elo: 0.00, nElo: undefined (every result alike: no error bar without spread)"},
		// Two pairs: the 95% interval of the score passes 1, where Elo is infinite. The clamped
		// figure (633.86) was printed as if it were an estimate.
		{"too few games", PairingTally{WDL: elo.WDL{Wins: 3, Losses: 1}, Pairs: elo.PairCounts{WL: 1, WW: 1}},
			"Elo: 190.85 +/- inf, nElo: 245.67 +/- 340.48 (too few games for a finite Elo interval)"},
		{"spread", PairingTally{WDL: elo.WDL{Wins: 30, Losses: 10, Draws: 20}, Pairs: elo.PairCounts{WW: 10, WD: 5, DD: 5, WL: 5, LD: 5}},
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
	checkGolden(t, "tables.txt", buf.Bytes())
}

func TestRatingTableGolden(t *testing.T) {
	// The 4-player round robin of docs/reference/STATISTICS.md §3.7, 100 games per pair, half
	// with each colour: the maximum-likelihood ratings are P1 +112.58, P2 +18.04, P3 -27.62,
	// P4 -103.00.
	points := map[[2]string]int{{"P1", "P2"}: 60, {"P1", "P3"}: 70, {"P1", "P4"}: 80, {"P2", "P3"}: 55, {"P2", "P4"}: 65, {"P3", "P4"}: 60}
	var recs []Record
	for _, pair := range [][2]string{{"P1", "P2"}, {"P1", "P3"}, {"P1", "P4"}, {"P2", "P3"}, {"P2", "P4"}, {"P3", "P4"}} {
		wins := points[pair]
		for g := 0; g < 100; g++ {
			white, black := pair[0], pair[1]
			if g%2 == 1 {
				white, black = black, white
			}
			result := BlackWins
			if (g < wins) == (white == pair[0]) {
				result = WhiteWins
			}
			recs = append(recs, game("r", len(recs), white, black, result, ReasonQueenSurrounded, ""))
		}
	}
	tally := NewTally(recs, []string{"P1", "P2", "P3", "P4"})
	r, err := FitRatings(tally)
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

// TestFieldTableInfiniteEstimates: a player who lost every game shows -inf, not -1199.8.
func TestFieldTableInfiniteEstimates(t *testing.T) {
	var recs []Record
	for i, pair := range [][2]string{{"a", "c"}, {"c", "a"}, {"b", "c"}, {"c", "b"}, {"a", "b"}, {"b", "a"}} {
		result := WhiteWins
		if pair[0] == "c" || pair[0] == "b" && pair[1] == "a" {
			result = BlackWins
		}
		r := game("r", i, pair[0], pair[1], result, ReasonQueenSurrounded, "")
		r.Pair = i / 2
		recs = append(recs, r)
	}
	var buf bytes.Buffer
	if err := WriteFieldTable(&buf, NewTally(recs, nil)); err != nil {
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

// TestMatchBlockSPRTCounts: after an SPRT decided, games in flight still finish and are
// counted; the LLR line says which pairs its LLR is from and gives the LLR over all pairs
// shown (what arbiter stats -sprt computes), instead of a frozen LLR beside a later count.
func TestMatchBlockSPRTCounts(t *testing.T) {
	p := &PairingTally{First: "A", Second: "B", WDL: elo.WDL{Wins: 30, Draws: 20, Losses: 10}, Pairs: elo.PairCounts{WW: 10, WD: 5, DD: 5, WL: 5, LD: 5}}
	var buf bytes.Buffer
	WriteMatchBlock(&buf, p, MatchInfo{SPRT: &SPRTLine{LLR: 2.95, Lower: -2.94, Upper: 2.94, Elo1: 5, Pairs: 28, AllPairs: 30, AllLLR: 3.08}})
	want := "LLR: 2.95 (100.3%) (-2.94, 2.94) [0.00, 5.00] at the decision, after 28 pairs; 3.08 over all 30 pairs above\n"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("block:\n%s\nwant the line %q", buf.String(), want)
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

// TestRatingTableSaysVirtualDraws: the ratings of a field where an engine lost every game are
// finite only by a prior (virtual draws); the table and the JSON must say so.
func TestRatingTableSaysVirtualDraws(t *testing.T) {
	var recs []Record
	for i, pair := range [][2]string{{"a", "c"}, {"c", "a"}, {"b", "c"}, {"c", "b"}, {"a", "b"}, {"b", "a"}} {
		result := Draw
		if pair[0] == "c" {
			result = BlackWins
		} else if pair[1] == "c" {
			result = WhiteWins
		}
		recs = append(recs, game("r", i, pair[0], pair[1], result, ReasonQueenSurrounded, ""))
	}
	tally := NewTally(recs, nil)
	r, err := FitRatings(tally)
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
	if s := NewSummary("records", tally, nil); s.Ratings == nil || s.Ratings.VirtualDraws != 1 {
		t.Errorf("summary ratings: %+v", s.Ratings)
	}
}

// TestVirtualDrawNoteIsTrue: a and b beat c and d in every game between the two groups and
// drew among themselves and each won a game within its group, so no engine won or lost every
// game, yet c and d never scored a point against the others. The note must name them and say that,
// not that an engine won or lost every game.
func TestVirtualDrawNoteIsTrue(t *testing.T) {
	var recs []Record
	add := func(white, black, result string) {
		recs = append(recs, game("r", len(recs), white, black, result, ReasonQueenSurrounded, ""))
	}
	for _, top := range []string{"a", "b"} {
		for _, bottom := range []string{"c", "d"} {
			add(top, bottom, WhiteWins)
			add(bottom, top, BlackWins)
		}
	}
	add("a", "b", WhiteWins)
	add("b", "a", WhiteWins)
	add("c", "d", WhiteWins)
	add("d", "c", WhiteWins)
	tally := NewTally(recs, nil)
	r, err := FitRatings(tally)
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
