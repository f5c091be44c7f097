// Package rules is the referee: a complete Hive rules engine for the base game and the
// Mosquito, Ladybug and Pillbug expansions, exactly as Mzinga (the reference UHP engine)
// plays them, with Mzinga's notation.
//
// It has two doors to one board. Game is the checked door for the arbiter and for engines'
// protocol layers: it parses MoveStrings in context, explains a rejected move in Mzinga's
// words, keeps the history and writes GameStrings. Board is the fast door for search and
// perft: it generates moves into a caller's buffer and applies and undoes them with an
// incrementally updated Zobrist hash, without allocating.
//
// The board is a 32 x 32 torus of axial hex cells. A hive has at most 28 pieces, so it never
// touches itself across the seam and the torus behaves as the infinite plane would.
//
// Mzinga has no draw by repetition and no move limit; those are arbiter adjudications. The
// referee exposes what they need: a position hash and how often the current position occurred.
//
// Hive has no fixed board, so Canonical gives a position's form up to the hex grid's twelve
// symmetries and translation, and CanonicalKey its hash: openings that differ only by a
// rotation or a mirror image are one position.
package rules
