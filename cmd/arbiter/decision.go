package main

import (
	"hivearbiter/elo"
	"hivearbiter/internal/cli"
)

// decisionExit is the exit status of an SPRT's decision, the same for every command that
// decides (match and its tournaments, stats -sprt, sprt-calc), so that a CI job gates on a
// shard's merged records or on counts exactly as on the match itself: nil (exit 0) for H1,
// exitH0 for H0, and exitInconclusive while the test has not decided (at a match's game cap,
// or in records and counts that do not reach a bound).
func decisionExit(d elo.Decision) error {
	switch d {
	case elo.AcceptH1:
		return nil
	case elo.AcceptH0:
		return cli.Exit(exitH0, "")
	}
	return cli.Exit(exitInconclusive, "")
}
