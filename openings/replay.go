package openings

import (
	"math/rand/v2"
	"strconv"

	"hivearbiter/openings/random"
	"hivearbiter/rules"
)

// Replayer plays openings on one game, taken back to its start between them. A new game's
// first move generation allocates the referee's working memory for it (about 140 KB), so a
// new game an opening cost a run with random openings 700 MB of allocations, 180 MiB of
// heap at once and a third of the arbiter's CPU before its banner (2,506 game pairs, drawn and
// then read back for repeats), at every start and every resume. The zero Replayer is ready;
// it is one goroutine's.
type Replayer struct{ g *rules.Game }

// start returns the replayer's game of type t at its start.
func (r *Replayer) start(t rules.GameType) *rules.Game {
	if r.g == nil || r.g.GameType() != t {
		r.g = rules.NewGame(t)
	} else {
		r.g.Reset()
	}
	return r.g
}

// RandomGame is the package's RandomGame on the replayer's game, which it returns: it is the replayer's,
// valid until the next call.
func (r *Replayer) RandomGame(t rules.GameType, plies int, rng *rand.Rand) *rules.Game {
	g := r.start(t)
	random.Opening(g, plies, rng)
	return g
}

// PositionKey is the package's PositionKey(gameString), read on the replayer's game.
func (r *Replayer) PositionKey(gameString string) string {
	if r.g == nil {
		r.g = rules.NewGame(rules.Base) // a game of any type: LoadGameString makes it the string's
	}
	if r.g.LoadGameString(gameString) != nil {
		return gameString
	}
	return strconv.FormatUint(r.g.CanonicalKey(), 16)
}
