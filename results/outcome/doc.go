// Package outcome holds the words in which a player's protocol and the referee speak of a
// game and its moves: why a game ended (Reason), an anomaly that decided nothing (Warning),
// and what an engine said of its search (SearchInfo).
//
// It imports nothing of the project. Package results writes these words into its records
// (its Reason, Warning and SearchInfo are these types), and the driver package, the engine
// clients and every protocol use them from here, so that a protocol links no records, no
// statistics and no rendering to say how a game ended.
package outcome
