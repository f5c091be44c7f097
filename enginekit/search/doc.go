// Package search finds good Hive moves: an alpha-beta searcher and an evaluation built for
// Hive, on top of the referee's fast board (rules.Board).
//
// Search techniques:
//   - Iterative deepening from depth 1, keeping the best move of the last completed
//     iteration; a move of an unfinished iteration replaces it only after its whole tree was
//     searched and it beat the old best move.
//   - Principal variation search (negamax, fail-soft): the first move with the full window,
//     the others with a null window and a re-search when they beat alpha.
//   - A transposition table keyed by the referee's Zobrist hash (rules.Board.Hash, which
//     includes the side to move and the pillbug-stunned last piece), sized in megabytes, of
//     two-slot buckets: one depth-preferred slot aged by search generation, one
//     always-replace slot. Its move orders the node even when its depth is too shallow for
//     a cutoff; its bounds cut only at non-PV nodes. A slot is two words written without
//     locks, the key stored xor the data, so that a slot torn by two threads reads as a miss.
//   - Parallel search (Options.Threads) by Young Brothers Wait, as nokamute's: a node
//     searches its first move alone; then, while a thread is idle, the node's other moves
//     are shared out and searched at once, on copies of the board, against one alpha that
//     each result raises; a fail high stops the others. Splits start from two plies of
//     remaining depth, at the root too. A thread waiting for the last moves of its split
//     lends itself to the helpers' subtrees. Lazy SMP (helpers searching the whole tree on
//     their own, sharing the table) was tried first and lost at equal time: the helpers'
//     table entries did not make up for the main thread's slower iterations at the depths
//     Hive reaches. One thread is deterministic at a fixed depth; several are not.
//   - Move ordering: the hash move, moves that fill the last cell around the enemy queen,
//     moves that add a piece next to it, two killer moves per ply, then movements before
//     placements, each by a history table (piece x destination) with gravity, rewarded on
//     a beta cutoff and penalised for the moves tried before it.
//   - Root ordering: the best move first, the others by the size of their last tree.
//   - Mate scores: a win found ply plies away scores Mate-ply, so faster wins and slower
//     losses are preferred; mate-distance pruning; mate scores are stored in the table
//     relative to the node. The search stops once a result is proven.
//   - A win-in-one check at the horizon: when the enemy queen has five neighbours, a leaf
//     generates its moves and scores a win next move as such, a one-ply extension for the
//     only tactic that ends a Hive game.
//   - Repetition: a position repeated since the last placement (placements are
//     irreversible) scores as a draw, so a winning side makes progress.
//   - Time: the search polls the clock, its context and an optional node budget every 256
//     nodes, stops a safety margin before the context's deadline (10% of the budget, at
//     least 10 ms and at most 100 ms, never more than half), and does not start an
//     iteration after half the budget is spent.
//   - No allocation per node: move lists and sort keys are reused per ply.
//
// There is no quiescence search and no null-move pruning: both engines this one learns from
// (nokamute and Mzinga) found them useless or harmful in Hive.
//
// The evaluation (Evaluate) scores, for each side: pressure around its queen (every occupied
// neighbour costs, an enemy more than an own piece, an own piece that cannot leave more than
// one that can, with a steep extra cost for the fifth neighbour), whether the queen can still
// move, mobility (a piece pinned by the one-hive rule, from rules.Board.PinnedPieces, or a
// crawler with no slide out of its cell, is worth nothing on the board; a movable piece is
// worth its bug's value, ants most), pieces in hand at a fraction of that, beetles on top of
// the hive (most on the enemy queen, then next to it), the pillbug's defensive power next
// to its own queen (and its attacking power next to the enemy's), and the empty cells around
// the enemy queen that an own piece touches (a gradient toward the last cells). Aggression
// (Options.Aggression) scales the queen terms against the mobility terms; the weights were
// chosen by self-play matches at equal node counts. They are each Searcher's own (Weights,
// SetWeights), and Params lists them with ranges, for an engine to offer as options to a tuner.
package search
