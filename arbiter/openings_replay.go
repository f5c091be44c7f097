package arbiter

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"hivearbiter/rules"
)

// replayer plays openings on one game, taken back to its start between them. A new game's
// first move generation allocates the referee's working memory for it (about 140 KB), so a
// new game an opening cost a run with random openings 700 MB of allocations, 180 MiB of
// heap at once and a third of the arbiter's CPU before its banner (2,506 game pairs, drawn and
// then read back for repeats), at every start and every resume.
type replayer struct{ g *rules.Game }

// start returns the replayer's game of type t at its start.
func (r *replayer) start(t rules.GameType) *rules.Game {
	if r.g == nil || r.g.GameType() != t {
		r.g = rules.NewGame(t)
	} else if n := r.g.Ply(); n > 0 {
		if err := r.g.Undo(n); err != nil {
			r.g = rules.NewGame(t)
		}
	}
	return r.g
}

// randomGame is randomGame on the replayer's game, which it returns: it is the replayer's,
// valid until the next call.
func (r *replayer) randomGame(t rules.GameType, plies int, rng *rand.Rand) *rules.Game {
	for attempt := 0; ; attempt++ {
		g := r.start(t)
		if playRandom(g, plies, rng, attempt) {
			return g
		}
	}
}

// position is OpeningPosition(gameString), replayed on the replayer's game; a GameString it
// cannot replay goes to OpeningPosition, which says what it makes of it.
func (r *replayer) position(gameString string) string {
	fields := strings.Split(gameString, ";")
	t, err := rules.ParseGameType(strings.TrimSpace(fields[0]))
	if err != nil || len(fields) < 3 {
		return OpeningPosition(gameString)
	}
	g := r.start(t)
	for _, m := range fields[3:] {
		if g.Play(m) != nil {
			return OpeningPosition(gameString)
		}
	}
	return strconv.FormatUint(g.CanonicalKey(), 16)
}
