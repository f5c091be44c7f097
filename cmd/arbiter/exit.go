package main

// Exit codes. They are stable and documented in the README: CI jobs gate on them.
const (
	exitOK           = 0   // finished; with -sprt: H1 accepted (the patch is good)
	exitFailure      = 1   // the arbiter itself failed (I/O, internal error)
	exitUsage        = 2   // bad command line or configuration
	exitH0           = 3   // SPRT accepted H0: the regression signal CI gates on
	exitInconclusive = 4   // SPRT reached its game cap without a decision
	exitEngines      = 5   // an engine failed: it cannot start or search (before game 1), failed -failure-streak games in a row the same way, or every game ended by a failure; or -strict saw misbehaviour
	exitInterrupted  = 130 // stopped by Ctrl-C or SIGTERM; run the same command to resume
)
