// Package openings builds opening books for Hive matches; the books the arbiter ships are
// in package openings/books, which the arbiter embeds without linking this one.
//
// A book is a list of positions a few plies into a game, one GameString per line, each
// followed by a comment giving its evaluation. Generate draws random positions after a given
// number of plies, drops those equal up to symmetry (rules.Game.Canonical: a rotated,
// mirrored or shifted opening is the same opening), evaluates the rest (Evaluator: hivebot's
// search at a fixed depth in-process, or any engine playing the position out against
// itself), keeps those whose evaluation lies within a band around equality, and spreads the
// kept ones over the bugs each side has placed and the shapes they make: positions are
// grouped by the placed bugs of each side, and within a group by shape, and the book takes
// them round-robin, so that no opening family fills the book. The same configuration and
// seed give the same book.
package openings
