// Package compliance checks an engine against its protocol before it plays: the suites that
// "arbiter check" runs, and what every suite shares.
//
// A protocol with a suite of its own is a Suite (RunChecks); Run runs the suite of an engine's
// protocol. A suite reports one Result per check (Passed, Failed, Warned, Skipped), with the
// settings a match needs when it found some. The suites share a Session: the results so far,
// the random source of their games and positions, and the engine under check, started afresh
// after a failed check so that each row judges one thing. A protocol whose players keep no
// state the arbiter could query is judged by play alone with PlaySuite, which plays them
// against the referee's random mover through the arbiter's own game loop. A session also
// measures what a match needs: the margin that covers an engine's overshoot through games
// played as a run plays them, loaded and late into the game (Overshoot, MarginFor;
// MarginChecked reads it back from a check's rows for a list or a gate), whether its options
// give fair timing (FairOption, AdviseFairTiming), and whether it plays the same move twice
// from one position (CheckDeterminism). WriteTable, Summarize and Settings turn the results
// into the table and the advice the command prints.
//
// The package sits above the arbiter (it plays games) and beside package driver: a protocol
// package imports these two and never the arbiter's tournaments.
package compliance
