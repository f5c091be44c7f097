// Package arbiter plays games between players and runs tournaments of them.
//
// A game follows the three-engine model of UHP: the arbiter holds the true game in its referee
// (package rules), asks the side to move for a move under a time control, checks the move, sends
// it to both players and cross-checks the game each player reports against its own. Every way a
// game can end, by the rules or by a player's failure, is adjudicated with a reason a person can
// read (see results.Reason).
//
// Players are behind the small Player interface; the UHP engine client is one implementation,
// so players speaking other protocols can join the same tournaments. A tournament's schedule is a
// pure function of its configuration, seed and game index, so that a run can be resumed, and its
// games sharded over workers whose records merge.
package arbiter
