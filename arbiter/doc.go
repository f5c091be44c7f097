// Package arbiter plays refereed games between players and runs tournaments of them. It knows
// no protocol: players are behind the Player interface, and each protocol (package uhp (proto/uhp)
// for UHP, and others) registers how its players start (driver.Register). A protocol may also
// be a Locator (it finds an engine's program before a run) and a compliance.Suite (it has a compliance
// suite, which compliance.Run runs for "arbiter check"); the suites share compliance.Session, and those
// that judge a player by play alone share compliance.PlaySuite, which plays them against the referee.
//
// A Game follows the three-engine model of UHP: the arbiter holds the true game in its referee
// (package rules), asks the side to move for a move under a time control (Think), checks the
// move, sends it to both players and cross-checks the game each player reports against its own
// (Commit). Every way a game can end, by the rules or by a player's failure, is adjudicated
// with a reason a person can read (see results.Reason). PlayGame plays a game to its end; a
// viewer session (package serve) drives one step by step.
//
// A Tournament runs in three stages: a Dispatcher hands out the game pairs that remain, a
// Runner plays them (LocalRunner on this machine's engines; a remote runner on others), and a
// collector appends every finished game to the records file before it counts it in the tables
// and the SPRT. Every worker of a runner, local or remote, holds its players in Seats: started
// when first needed, checked against the game type, restarted after a fault or with
// restart=on, and closed at the end. Observers watch the games and the standings as they
// change. A tournament's
// schedule is a pure function of its configuration, seed and game index, so that a run can be
// resumed, and its games sharded or spread over machines whose records merge.
package arbiter
