// Package evaluate holds the evaluators that score the candidates of an opening book
// (openings.Evaluator): hivebot's search at a fixed depth (Search), hivebot's game against
// itself (Playout), or any engine's game against itself, started through the arbiter's
// protocol registry (Engine). They live apart from package openings because they link the
// search and the arbiter's players, and the arbiter, which imports openings, links neither.
package evaluate
