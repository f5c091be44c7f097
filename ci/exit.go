package ci

import (
	"fmt"

	"hivearbiter/arbiter"
	"hivearbiter/elo"
)

// Exit codes. They are stable and documented once, in docs/records.md ("Exit codes"): CI jobs
// gate on them. Every command that decides an SPRT (match in every format, stats -sprt,
// sprt-calc) maps its decision to 0, 3 or 4 through DecisionCode.
const (
	ExitOK           = 0   // finished; with an SPRT: H1 accepted (the patch is good)
	ExitFailure      = 1   // the arbiter itself failed (I/O, internal error)
	ExitUsage        = 2   // bad command line or configuration
	ExitH0           = 3   // SPRT accepted H0: the regression signal CI gates on
	ExitInconclusive = 4   // SPRT without a decision: a match at its game cap with at_cap=inconclusive, records or counts short of a bound
	ExitEngines      = 5   // an engine failed: it cannot start or search (before game 1), failed -failure-streak games in a row the same way, or every game ended by a failure; or -strict saw misbehaviour
	ExitInterrupted  = 130 // stopped by Ctrl-C or SIGTERM; run the same command to resume
)

// DecisionCode is the exit code of an SPRT's decision, the same for every command that
// decides (match and its tournaments, stats -sprt, sprt-calc), so that a CI job gates on a
// shard's merged records or on counts exactly as on the match itself: ExitOK for H1, ExitH0
// for H0, and ExitInconclusive while the test has not decided (at the game cap of a match that
// asked for at_cap=inconclusive, or in records and counts that do not reach a bound). A match
// that decides at its cap by the final threshold exits 0 or 3 as at a bound.
func DecisionCode(d elo.Decision) int {
	switch d {
	case elo.AcceptH1:
		return ExitOK
	case elo.AcceptH0:
		return ExitH0
	}
	return ExitInconclusive
}

// OutcomeCode is the exit code of a run of cfg that played to its outcome, and what ended it
// ("" where the code says it all): ExitInterrupted when it was stopped, ExitEngines when
// engines ended it (a Strict run's misbehaviour, a failure streak, every game a failure), else
// its SPRT's DecisionCode, or ExitOK.
func OutcomeCode(cfg arbiter.Config, out *arbiter.Outcome) (code int, msg string) {
	switch {
	case out.Interrupted:
		return ExitInterrupted, ""
	case cfg.Strict && out.Tally.Faults() > 0:
		return ExitEngines, fmt.Sprintf("strict: %d games ended by engine misbehaviour", out.Tally.Faults())
	case out.FailureStop != nil:
		return ExitEngines, out.FailureStop.Message()
	case out.AllFailed():
		return ExitEngines, fmt.Sprintf("every one of the %d games ended by an engine's failure (%s), so the run informs of nothing: arbiter stats %s lists them, and arbiter check -engine ... tells what the engine breaks",
			out.Tally.Games, out.Tally.FaultReasons(), cfg.Out)
	case out.SPRT != nil:
		return DecisionCode(out.SPRT.Decision), ""
	}
	return ExitOK, ""
}

// exitDecisions says, for each exit code, what decided a gate that ended with it: the table
// of exit codes in a gate's words. A code not here is the arbiter's own failure.
var exitDecisions = map[int]string{
	ExitOK:           "H1 accepted",
	ExitH0:           "H0 accepted",
	ExitInconclusive: "no decision",
	ExitEngines:      "stopped by engine failures",
	ExitInterrupted:  "interrupted",
	ExitUsage:        "refused",
	ExitFailure:      "the arbiter failed",
}
