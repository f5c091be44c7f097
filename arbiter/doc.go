// Package arbiter plays refereed games between players and runs tournaments of them. It knows
// no protocol: players are behind package driver's Player interface, and each protocol
// (package uhp (proto/uhp) for UHP, and others) registers how its players start
// (driver.Register). The compliance suites that "arbiter check" runs are package compliance,
// built on this one.
//
// A Game follows the three-engine model of UHP: the arbiter holds the true game in its referee
// (package rules), asks the side to move for a move under a time control (Think), checks the
// move, sends it to both players and cross-checks the game each player reports against its own
// (Commit). Every way a game can end, by the rules or by a player's failure, is adjudicated
// with a reason a person can read (see results.Reason). PlayGame plays a game to its end; a
// viewer session (package viewerbridge) drives one step by step.
//
// A Tournament runs in three stages: a Dispatcher hands out the game pairs that remain, a
// Runner plays them (LocalRunner on this machine's engines, for Play; a remote runner on
// others, given to PlayOn), and a collector appends every finished game to the records file
// before it counts it in the tables and the SPRT. How a tournament starts its players and who
// watches it are its TournamentOptions, given to NewTournament; a runner that tries its
// engines before the first game says so by the optional interface Preflighter. Every worker of
// a runner, local or remote, holds its players in Seats: started when first needed, checked
// against the game type, restarted after a fault or with restart=on, and closed at the end.
// Observers watch the games and the standings as they change, and an EventObserver hears what
// the run says besides (a resumed run, a stop, the result tables due): the arbiter prints
// nothing itself, and the console (package console) is one observer among others. A tournament's schedule is a pure function of its configuration, seed and game
// index, so that a run can be resumed, and its games sharded or spread over machines whose
// records merge.
package arbiter
