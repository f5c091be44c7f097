// Package random draws random openings from the referee's legal moves: random legal plies
// from the empty board, backed off a ply at a time from a position that is already decided.
//
// It needs the referee alone. Package openings draws a run's random openings with it, and the
// compliance checks (which every protocol links) draw their positions with it, the same way,
// without linking the books, the records and the statistics that package openings reads.
package random
