package report

import "hivearbiter/results"

// Observer is what a running tournament tells a report as it plays: the seam between the
// tournament and the pages. A tournament calls it from its workers, so implementations are
// safe for concurrent use, and each call returns quickly.
//
// There is no call for standings: a page computes them from the finished games, exactly as a
// report of the records file would, so the live page and the report always agree.
type Observer interface {
	// GameStarted says that the game with this index in the schedule has started from the
	// opening GameString.
	GameStarted(game int, white, black results.Player, opening string)
	// MovePlayed says that the referee accepted a move in a game in progress. It is the move
	// alone: an observer that wants the position replays it (as Live does), for a
	// GameString written out every ply costs the arbiter time that grows with the game.
	MovePlayed(game int, move results.Move)
	// GameFinished hands over a finished game's record, once it is recorded.
	GameFinished(rec *results.Record)
}

// Observers hands every event to each of its observers, in order.
type Observers []Observer

// GameStarted tells every observer.
func (os Observers) GameStarted(game int, white, black results.Player, opening string) {
	for _, o := range os {
		o.GameStarted(game, white, black, opening)
	}
}

// MovePlayed tells every observer.
func (os Observers) MovePlayed(game int, move results.Move) {
	for _, o := range os {
		o.MovePlayed(game, move)
	}
}

// GameFinished tells every observer.
func (os Observers) GameFinished(rec *results.Record) {
	for _, o := range os {
		o.GameFinished(rec)
	}
}
