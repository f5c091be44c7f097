// Package ratinglisttest makes rating lists and their records for tests and benchmarks: a list
// of engines of known strength and games drawn from the Elo model, without playing a move.
package ratinglisttest
