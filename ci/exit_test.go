package ci

import (
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/elo"
	"hivearbiter/results"
)

// TestOutcomeCode: a run's outcome is its exit code, engines' ends before the SPRT's decision,
// with the message that says what ended it.
func TestOutcomeCode(t *testing.T) {
	game := func(n int, reason results.Reason) results.Record {
		r := results.Record{Run: "r", Game: n, Pair: n / 2, White: results.Player{Name: "a"}, Black: results.Player{Name: "b"},
			Result: results.WhiteWins, Reason: results.ReasonQueenSurrounded}
		if reason != "" {
			r.Result, r.Reason, r.Culprit = results.BlackWins, reason, "White"
		}
		return r
	}
	played := func(reasons ...results.Reason) arbiter.Standings {
		var recs []results.Record
		for i, r := range reasons {
			recs = append(recs, game(i, r))
		}
		return arbiter.Standings{Tally: results.NewTally(recs, nil)}
	}
	decided := func(s arbiter.Standings, d elo.Decision) arbiter.Standings {
		s.SPRT = &arbiter.SPRTStatus{Decision: d}
		return s
	}
	oneCrash := played("", results.ReasonCrash)
	for _, tc := range []struct {
		name   string
		strict bool
		out    arbiter.Outcome
		code   int
		msg    string
	}{
		{"finished", false, arbiter.Outcome{Standings: played("", "")}, ExitOK, ""},
		{"H1", false, arbiter.Outcome{Standings: decided(played(""), elo.AcceptH1)}, ExitOK, ""},
		{"H0", false, arbiter.Outcome{Standings: decided(played(""), elo.AcceptH0)}, ExitH0, ""},
		{"no decision", false, arbiter.Outcome{Standings: decided(played(""), elo.Continue)}, ExitInconclusive, ""},
		{"interrupted before its H0", true, arbiter.Outcome{Standings: decided(oneCrash, elo.AcceptH0), Interrupted: true}, ExitInterrupted, ""},
		{"strict", true, arbiter.Outcome{Standings: decided(oneCrash, elo.AcceptH1)}, ExitEngines, "strict: 1 games ended by engine misbehaviour"},
		{"a fault, not strict", false, arbiter.Outcome{Standings: oneCrash}, ExitOK, ""},
		{"a failure streak", false, arbiter.Outcome{Standings: oneCrash, FailureStop: &arbiter.FailingError{Engine: "a", Reason: results.ReasonCrash, Games: 3}},
			ExitEngines, (&arbiter.FailingError{Engine: "a", Reason: results.ReasonCrash, Games: 3}).Message()},
		{"every game a failure", false, arbiter.Outcome{Standings: decided(played(results.ReasonCrash, results.ReasonTimeForfeit), elo.AcceptH1)}, ExitEngines,
			"every one of the 2 games ended by an engine's failure (a 1 by crash, a 1 by time-forfeit), so the run informs of nothing: arbiter stats games.jsonl lists them, and arbiter check -engine ... tells what the engine breaks"},
	} {
		code, msg := OutcomeCode(arbiter.Config{Strict: tc.strict, Out: "games.jsonl"}, &tc.out)
		if code != tc.code || msg != tc.msg {
			t.Errorf("%s: %d %q, want %d %q", tc.name, code, msg, tc.code, tc.msg)
		}
	}
}
