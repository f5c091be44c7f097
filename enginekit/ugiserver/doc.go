// Package ugiserver is the engine side of the Universal Game Interface (UGI) for Hive: it
// turns a Searcher into a UGI engine on standard input and output, usable from cutegames'
// generic mode as it is. The Server keeps the game with the referee's rules (package rules),
// so positions, queries and forced passes are answered exactly; the Searcher only searches.
// hivebot speaks UGI through it when its first command is "ugi".
//
// Hive over UGI: p1 is White; a move is one token, the UHP MoveString with its space written
// "_" ("bS1_wS1-", "wQ_\wS1"); "position startpos" is Base;NotStarted;White[1]; "position
// fen F" takes a GameTypeString (Base+MLP) or a GameString whose moves are tokens.
//
// What the Server does:
//
//   - "ugi": the id lines, one option line per option, "ugiok". "isready": "readyok", at
//     once, also during a search. "uginewgame": the empty Base board, and the searcher
//     forgets earlier games. "setoption name N value V".
//   - "position": any move the rules accept, in any notation Mzinga reads (a non-canonical
//     reference piece, the moving piece as its own reference). A position that does not
//     parse, or a move that is not legal, is answered with "info error" and the position is
//     left as it was: a client that cannot play a game type learns it here.
//   - "go depth N", "go nodes N", "go movetime MS", "go infinite", or "go p1time T p2time T
//     p1inc I p2inc I" (the side to move's own time and increment make the budget). The
//     search runs while commands are read; only "isready", "stop" and "quit" are served
//     during it, others get "info error". Every go gets exactly one "bestmove", after a final
//     "info depth D score cp S nodes N time MS nps X pv ..." line: at the search's end, on
//     "stop" (the only end of "go infinite", even of a search that finished), or at once for
//     a forced pass ("bestmove pass"). A go that cannot be searched
//     (a finished game, bad arguments) gets "info error" and "bestmove 0000".
//   - "query p1turn" (true|false), "query gameover" (true|false), "query result"
//     (p1win|p2win|draw|none), each answered "response V".
//   - "quit" ends the engine at once, a running search included; so does the end of input.
package ugiserver
