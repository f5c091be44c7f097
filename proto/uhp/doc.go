// Package uhp enters engines that speak the Universal Hive Protocol (UHP) in the
// arbiter's games: it adapts package uhpclient's engine process to driver.Player and
// registers itself as protocol "uhp", the default. Importing it (for its side effect) is what
// makes UHP engines available to a program:
//
//	import _ "hivearbiter/proto/uhp"
//
// A UHP engine reports its GameString after every newgame and play, so its game is
// cross-checked against the referee's; it advertises the expansions it plays; a search can be
// interrupted with SIGINT, after which the engine answers its best move so far.
//
// Its protocol-specific setting is fractional=true|false: whether the engine reads "bestmove
// time" budgets with fractions of a second (Mzinga and hivebot do; most engines count whole
// seconds). An engine that counts whole seconds is sent a budget rounded up and stopped with
// SIGINT when the budget is up; the record warns of it once per engine process.
//
// With a transcript directory, each engine process writes its conversation to its own file
// there, each game marked where it begins, and each record names its players' transcripts.
//
// Protocol is a compliance.Suite: "arbiter check" runs its compliance suite (RunChecks), which
// also finds which time setting suits an engine, and the margin its overshoot needs, measured
// through games from the start, as many at once as the run will play.
package uhp
