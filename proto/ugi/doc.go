// Package ugi enters engines that speak the Universal Game Interface (UGI, the UCI-like
// protocol of the cutegames runner) in the arbiter's games: the adapter of a UGI client
// (package ugiclient) to driver.Player, registered as protocol "ugi" (proto=ugi). Importing it for its
// side effect makes UGI engines available to a program:
//
//	import _ "hivearbiter/proto/ugi"
//
// # Hive over UGI
//
// p1 is White, p2 is Black. A move is one token: the UHP MoveString with its space written
// "_" ("bS1_wS1-", "wQ_\wS1"); "wS1" and "pass" stay as they are; a token with more than one
// "_" is no move. "position startpos" is Base;NotStarted;White[1]; "position fen F" takes
// what UHP's newgame takes, a GameTypeString such as Base+MLP or a GameString whose moves are
// written the same way. "query gameover" is true for WhiteWins, BlackWins and Draw, and "query
// result" answers p1win, p2win, draw or none.
//
// # What the arbiter sends
//
// At start "ugi" (the handshake must end with "ugiok" within the start timeout; lines before
// it that are not id or option lines are skipped), one "setoption name N value V" per
// option.NAME=V setting, and "isready". For each game "uginewgame", the position and
// "isready"; the position is "position startpos" for Base and "position fen GAMETYPE"
// otherwise, followed by "moves" and every move since the empty board in the arbiter's own
// canonical notation, when there are any. An engine that answers it with "info error" does
// not play the game type (UGI has no capability list): the game is lost with a
// protocol violation that says so.
//
// For each move the position, then exactly one search form: "go depth N" (depth=N), "go
// nodes N" (nodes=N), "go movetime MS" (st=), or for a game clock (tc=) "go p1time T p2time T
// p1inc I p2inc I", both sides' clocks in whole milliseconds (at least 1) as the arbiter holds
// them. The info lines before "bestmove" are kept in the record of the move (depth, score,
// nodes, time, nps, pv). A search that outlives its watchdog is sent "stop", given the grace
// period, and killed. A bestmove line of other than two words, a move token with two "_",
// and an "info error" during the search (the engine refused the game) each lose the game with
// a reason; an unreadable or illegal move (such as "0000") is the referee's to judge.
//
// UGI engines keep no game state the arbiter could cross-check, so they are not sent moves
// between searches. When a game ends the engine is sent the final position and asked "query
// gameover" and "query result"; a disagreement with the rules is noted in the record's
// warnings (a false claim when it claims a result the rules do not give). "quit" ends it.
//
// Protocol is a compliance.Suite: "arbiter check -engine ... proto=ugi" runs its compliance
// suite (RunChecks), from the handshake to "go infinite" and a forced pass.
package ugi
