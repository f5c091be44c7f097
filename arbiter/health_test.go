package arbiter

import (
	"testing"

	"hivearbiter/results"
	"hivearbiter/rules"
)

// game is a record of a game that culprit lost by reason (no one: ""), after moves plies, from
// an opening after which White moves first.
func game(culprit string, reason results.Reason, moves int) *results.Record {
	return &results.Record{Opening: "Base+MLP;InProgress;White[1]", Culprit: culprit, Reason: reason, Moves: make([]results.Move, moves)}
}

// An engine is broken by brokenGames games in a row that it could not play: crashed, stalled
// or broke its protocol before its first move. A move of its own, a game it did not lose by a
// fault, or a fault that is play (a time loss) starts the count again.
func TestHealthCountsGamesWithoutAMove(t *testing.T) {
	tests := []struct {
		name   string
		side   rules.Color
		games  []*results.Record
		broken bool
	}{
		{"three crashes at the start", rules.Black, []*results.Record{
			game("Black", results.ReasonCrash, 0), game("Black", results.ReasonStall, 1), game("Black", results.ReasonProtocol, 1)}, true},
		{"a move of its own in between", rules.Black, []*results.Record{
			game("Black", results.ReasonCrash, 0), game("Black", results.ReasonCrash, 2), game("Black", results.ReasonCrash, 0)}, false},
		{"White's first move is its own", rules.White, []*results.Record{
			game("White", results.ReasonCrash, 0), game("White", results.ReasonCrash, 1), game("White", results.ReasonCrash, 0)}, false},
		{"a game it did not lose by a fault", rules.Black, []*results.Record{
			game("Black", results.ReasonCrash, 0), game("", results.ReasonQueenSurrounded, 0), game("Black", results.ReasonCrash, 0)}, false},
		{"time losses are play", rules.Black, []*results.Record{
			game("Black", results.ReasonTimeForfeit, 1), game("Black", results.ReasonTimeForfeit, 1), game("Black", results.ReasonTimeForfeit, 1)}, false},
		{"the opponent's crashes", rules.Black, []*results.Record{
			game("White", results.ReasonCrash, 0), game("White", results.ReasonCrash, 0), game("White", results.ReasonCrash, 0)}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h health
			broken := false
			for _, r := range tc.games {
				broken, _ = h.played(0, tc.side, r, 0)
			}
			if broken != tc.broken {
				t.Errorf("broken = %v, want %v", broken, tc.broken)
			}
		})
	}
}

// The failure streak counts an engine's games in a row failed the same way; a game the other
// side's failure ended before the engine moved leaves it as it was, any other game ends it.
func TestFailureStreaks(t *testing.T) {
	tests := []struct {
		name  string
		side  rules.Color
		games []*results.Record
		want  int
	}{
		{"three time losses", rules.Black, []*results.Record{
			game("Black", results.ReasonTimeForfeit, 12), game("Black", results.ReasonTimeForfeit, 20), game("Black", results.ReasonTimeForfeit, 9)}, 3},
		{"the other side's crash before it moved", rules.Black, []*results.Record{
			game("Black", results.ReasonCrash, 2), game("White", results.ReasonCrash, 0), game("Black", results.ReasonCrash, 2)}, 2},
		{"the other side's crash after it moved", rules.Black, []*results.Record{
			game("Black", results.ReasonCrash, 2), game("White", results.ReasonCrash, 2), game("Black", results.ReasonCrash, 2)}, 1},
		{"another failure", rules.White, []*results.Record{
			game("White", results.ReasonCrash, 1), game("White", results.ReasonIllegalMove, 3), game("White", results.ReasonIllegalMove, 1)}, 2},
		{"a game played out", rules.White, []*results.Record{
			game("White", results.ReasonDesync, 1), game("", results.ReasonQueenSurrounded, 30), game("White", results.ReasonDesync, 1)}, 1},
		{"a game it did not fail", rules.White, []*results.Record{
			game("White", results.ReasonDesync, 1), game("", results.ReasonMoveLimit, 300)}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s failureStreaks
			got := 0
			for _, r := range tc.games {
				got = s.add(0, tc.side, r)
			}
			if got != tc.want {
				t.Errorf("streak %d, want %d", got, tc.want)
			}
		})
	}
}
