package arbiter

import (
	"fmt"

	"hivearbiter/arbiter/driver"
	"hivearbiter/openings"
)

// Format is the shape of a tournament.
type Format string

// The tournament formats.
const (
	Match      Format = "match"       // two engines
	Gauntlet   Format = "gauntlet"    // the first Seeds engines against each of the others
	RoundRobin Format = "round-robin" // every engine against every other
)

// ParseFormat reads a tournament format.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case Match, Gauntlet, RoundRobin:
		return f, nil
	case "roundrobin":
		return RoundRobin, nil
	}
	return "", &driver.ConfigError{Msg: fmt.Sprintf("tournament format %q: want match, gauntlet or round-robin", s)}
}

// ScheduledGame is one game of a tournament's schedule.
type ScheduledGame struct {
	Index        int // position in the schedule, from 0
	Round        int // from 1
	Pair         int // game pair: both games of a pair share an opening, colours swapped
	White, Black int // indices into the tournament's engines
	Opening      string
	OpeningIndex int
}

// Schedule is the order of a tournament's games. Game(i) depends only on the tournament's
// configuration, its seed and i: every worker that knows the configuration agrees on it.
type Schedule struct {
	pairings [][2]int
	perPair  int // games each pairing plays per round with one opening: 2 (colours swapped) or 1
	rounds   int
	openings *openings.Book
}

// NewSchedule lays out rounds of the given format over n engines. gamesPerPairing is 2 for game
// pairs (the same opening twice with colours swapped) or 1. seeds is the number of gauntlet
// engines.
func NewSchedule(format Format, n, seeds, rounds, gamesPerPairing int, book *openings.Book) (*Schedule, error) {
	if gamesPerPairing != 1 && gamesPerPairing != 2 {
		return nil, &driver.ConfigError{Msg: fmt.Sprintf("games per pairing must be 1 or 2 (a game pair), not %d", gamesPerPairing)}
	}
	if rounds < 1 {
		return nil, &driver.ConfigError{Msg: fmt.Sprintf("rounds must be at least 1, not %d", rounds)}
	}
	s := &Schedule{perPair: gamesPerPairing, rounds: rounds, openings: book}
	switch format {
	case Match:
		if n != 2 {
			return nil, &driver.ConfigError{Msg: fmt.Sprintf("a match needs exactly 2 engines, not %d", n)}
		}
		s.pairings = [][2]int{{0, 1}}
	case Gauntlet:
		if seeds < 1 || seeds >= n {
			return nil, &driver.ConfigError{Msg: fmt.Sprintf("a gauntlet of %d engines needs between 1 and %d seed engines, not %d", n, n-1, seeds)}
		}
		for opp := seeds; opp < n; opp++ {
			for g := 0; g < seeds; g++ {
				s.pairings = append(s.pairings, [2]int{g, opp})
			}
		}
	case RoundRobin:
		if n < 2 {
			return nil, &driver.ConfigError{Msg: fmt.Sprintf("a round-robin needs at least 2 engines, not %d", n)}
		}
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				s.pairings = append(s.pairings, [2]int{a, b})
			}
		}
	default:
		return nil, &driver.ConfigError{Msg: fmt.Sprintf("unknown tournament format %q", format)}
	}
	return s, nil
}

// Len is the number of games in the schedule.
func (s *Schedule) Len() int { return s.rounds * len(s.pairings) * s.perPair }

// PairGames is the number of games in a pair: 2 for colour-swapped pairs, 1 otherwise.
func (s *Schedule) PairGames() int { return s.perPair }

// Game returns the i-th game of the schedule.
func (s *Schedule) Game(i int) ScheduledGame {
	perRound := len(s.pairings) * s.perPair
	k := i % perRound
	pairing := s.pairings[k/s.perPair]
	pair := i / s.perPair
	white, black := pairing[0], pairing[1]
	if i%s.perPair == 1 {
		white, black = black, white
	}
	opening, idx := s.openings.At(pair)
	return ScheduledGame{Index: i, Round: 1 + i/perRound, Pair: pair, White: white, Black: black, Opening: opening, OpeningIndex: idx}
}
