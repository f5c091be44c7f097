package main

// Exit codes. They are stable and documented once, in docs/records.md ("Exit codes"): CI jobs
// gate on them. Every command that decides an SPRT (match in every format, stats -sprt,
// sprt-calc) maps its decision to 0, 3 or 4 through decisionExit.
const (
	exitOK           = 0   // finished; with an SPRT: H1 accepted (the patch is good)
	exitFailure      = 1   // the arbiter itself failed (I/O, internal error)
	exitUsage        = 2   // bad command line or configuration
	exitH0           = 3   // SPRT accepted H0: the regression signal CI gates on
	exitInconclusive = 4   // SPRT without a decision: a match at its game cap, records or counts short of a bound
	exitEngines      = 5   // an engine failed: it cannot start or search (before game 1), failed -failure-streak games in a row the same way, or every game ended by a failure; or -strict saw misbehaviour
	exitInterrupted  = 130 // stopped by Ctrl-C or SIGTERM; run the same command to resume
)
