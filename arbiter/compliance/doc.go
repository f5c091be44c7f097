// Package compliance is what a protocol's compliance check is written with: the check that
// "arbiter check" runs on an engine before it plays, and what every protocol's check shares.
//
// A protocol with a suite of its own is a Suite (RunChecks); a protocol whose players keep no
// state the arbiter could query is PlayChecked instead: it declares the rows of a check by
// play alone (PlayRows), and package arbiter/check plays it against the referee. A check
// reports one Result per row (Passed, Failed, Warned, Skipped), with the settings a match
// needs when it found some. The suites share a Session: the results so far, the random source
// of their games and positions (drawn as a run's random openings are), and the engine under
// check, started afresh after a failed check so that each row judges one thing. A session
// also measures what a match needs: the margin that covers an engine's overshoot through
// games played as a run plays them, loaded and late into the game (Overshoot, MarginFor;
// MarginChecked reads it back from a check's rows for a list or a gate), whether its options
// give fair timing (FairOption, AdviseFairTiming), and whether it plays the same move twice
// from one position (CheckDeterminism). WriteTable, Summarize and Settings turn the results
// into the table and the advice the command prints.
//
// The package sits beside package driver and links only it, the referee and the plumbing:
// every protocol imports these two, so it plays no game through the arbiter and links none of
// its tournaments, records or statistics. What plays games for a check (Run, PlaySuite) is
// package arbiter/check, above the protocols, as database/sql's conformance suites sit above
// its drivers.
package compliance
