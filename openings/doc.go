// Package openings owns where the games of a run start: the openings a run plays (Config,
// loaded by Load into a Book that hands each game pair its opening), the books the arbiter
// ships (embedded from books/, by name: BookNames, ReadBook), and the generation of books.
//
// A run's openings come from a file of GameStrings or Mzinga PGN games, from a shipped book
// (played as its file would be), or from random legal plies drawn from the run's seed so that
// no two game pairs start from positions equal up to symmetry while there are enough of them.
// Every opening is replayed by the referee when it is loaded, so that a bad one is reported
// before any game, and the Book is a pure function of its source, the seed and the pair
// index, so that any worker computes the same schedule.
//
// A generated book is a list of positions a few plies into a game, one GameString per line,
// each followed by a comment giving its evaluation. Generate draws random positions after a
// given number of plies, drops those equal up to symmetry (rules.Game.Canonical: a rotated,
// mirrored or shifted opening is the same opening), evaluates the rest (an Evaluator: those of
// package openings/evaluate score with hivebot's search at a fixed depth in-process, or with
// any engine playing the position out against itself), keeps those whose evaluation lies
// within a band around equality, and spreads the kept ones over the bugs each side has placed
// and the shapes they make: positions are grouped by the placed bugs of each side, and within
// a group by shape, and the book takes them round-robin, so that no opening family fills the
// book. The same configuration and seed give the same book.
//
// The package needs only the referee and the records' PGN reader, so that the arbiter can
// import it; the evaluators, which link the search or start engines, live in
// openings/evaluate.
package openings
