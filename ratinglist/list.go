package ratinglist

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/openings"
)

// Mode is how an entrant's games are chosen.
type Mode string

// The modes of a list.
const (
	// Gauntlet plays each entrant against established entrants chosen to shrink its error
	// fastest, until its error reaches the target or its game budget is spent.
	Gauntlet Mode = "gauntlet"
	// RoundRobin first plays each entrant against every entrant before it on the list, Rounds
	// game pairs each, then as Gauntlet while its error is above the target.
	RoundRobin Mode = "round-robin"
)

// Defaults of a list's settings.
const (
	DefaultErrorTarget = 50  // Elo, the half-width of the 95% interval
	DefaultMaxGames    = 400 // games of an entrant's own gauntlet
	DefaultPairs       = 4   // game pairs against each opponent of a batch
	DefaultOpponents   = 3   // opponents of a gauntlet batch
	DefaultAnchorElo   = 1000
	// AnchorWindow is how near the anchor's rating an entrant must be to count as the anchor's
	// neighbourhood, in Elo.
	AnchorWindow = 100
)

// List is a rating list: the conditions its games are played under and its entrants.
type List struct {
	Name string
	// Path is the list's file; the records, checks and site default to names beside it.
	Path string
	// GameType, Limit, Openings and Adjudication are the conditions every game is played
	// under. Limit holds the engines' limit as -each words ("tc=60+0.6", "st=1", "depth=4").
	GameType     string
	Limit        []string
	Openings     openings.Config
	Adjudication arbiter.Adjudication
	Concurrency  int
	Seed         int64
	Mode         Mode
	Rounds       int // round-robin mode: game pairs against each earlier entrant
	Pairs        int // game pairs against each opponent of a gauntlet batch
	Opponents    int // opponents of a gauntlet batch
	// ErrorTarget is the half-width of the 95% interval (Elo) under which an entrant is no
	// longer provisional and its gauntlet ends; MaxGames ends it regardless.
	ErrorTarget float64
	MaxGames    int
	// FailureStreak stops an entrant that fails this many games in a row the same way.
	FailureStreak int
	Anchor        Anchor
	Entrants      []Entrant
	// Records, Checks and Site are the records file, the folder of entrants' check reports
	// and the site's folder.
	Records, Checks, Site string
}

// Anchor fixes one entrant's rating, so that ratings mean the same from run to run.
type Anchor struct {
	Entrant string // the entrant's player name (Name and Version)
	Elo     float64
}

// Entrant is one version of an engine on the list.
type Entrant struct {
	Name, Version string
	// Words are the engine's specification as the list gives it (the -engine words that
	// arbiter check prints).
	Words []string
	// Engine is the specification with the list's limit, named as the entrant's player.
	Engine               driver.EngineConfig
	Author, URL, Licence string
}

// Player is the entrant's name in games and tables: its name and version.
func (e Entrant) Player() string { return e.Name + " " + e.Version }

// Error is a problem with a list: its file, or its records against it.
type Error struct{ Msg string }

// Error is the Message after the package's name.
func (e *Error) Error() string { return "ratinglist: " + e.Msg }

// Message is the error without the package's name.
func (e *Error) Message() string { return e.Msg }

func problem(format string, args ...any) error { return &Error{fmt.Sprintf(format, args...)} }

// Normalize fills in the defaults and checks the list: names, versions, the anchor and the
// numbers. It returns every problem found.
func (l *List) Normalize() error {
	l.Mode = cmp.Or(l.Mode, Gauntlet)
	l.ErrorTarget = cmp.Or(l.ErrorTarget, DefaultErrorTarget)
	l.MaxGames = cmp.Or(l.MaxGames, DefaultMaxGames)
	l.Pairs = cmp.Or(l.Pairs, DefaultPairs)
	l.Opponents = cmp.Or(l.Opponents, DefaultOpponents)
	l.Rounds = cmp.Or(l.Rounds, l.Pairs)
	l.Concurrency = max(l.Concurrency, 1)
	l.FailureStreak = cmp.Or(l.FailureStreak, arbiter.DefaultFailureStreak)
	var problems []error
	bad := func(format string, args ...any) { problems = append(problems, problem(format, args...)) }
	if l.Mode != Gauntlet && l.Mode != RoundRobin {
		bad("mode %q: want gauntlet or round-robin", l.Mode)
	}
	if l.ErrorTarget <= 0 || l.MaxGames < 2 || l.Pairs < 1 || l.Opponents < 1 || l.Rounds < 1 {
		bad("error_target, max_games, pairs, opponents and rounds must be positive (max_games at least a pair)")
	}
	if len(l.Limit) == 0 {
		bad("no limit: give the list's one time control, such as limit = \"tc=60+0.6\" (or st=SECONDS, depth=N)")
	}
	seen := map[string]bool{}
	reports := map[string]string{} // check report files, and whose
	for i, e := range l.Entrants {
		report := l.CheckReport(e)
		switch {
		case strings.TrimSpace(e.Name) == "":
			bad("entrant %d has no name", i+1)
		case strings.TrimSpace(e.Version) == "":
			bad("entrant %q has no version: a rating names a version", e.Name)
		case seen[e.Player()]:
			bad("two entrants are %q: each version enters once", e.Player())
		case reports[report] != "":
			bad("entrants %q and %q would share the check report %s: tell their names or versions apart by a letter or digit",
				reports[report], e.Player(), filepath.Base(report))
		}
		seen[e.Player()] = true
		reports[report] = cmp.Or(reports[report], e.Player())
	}
	if len(l.Entrants) < 2 {
		bad("a list needs at least 2 entrants, not %d", len(l.Entrants))
	}
	if l.Anchor.Entrant == "" {
		bad("no anchor: name the entrant whose rating is fixed, anchor = { entrant = \"NAME VERSION\", elo = %d }", DefaultAnchorElo)
	} else if l.entrant(l.Anchor.Entrant) < 0 {
		bad("the anchor %q is not an entrant of the list (its entrants: %s)", l.Anchor.Entrant, strings.Join(l.players(), ", "))
	}
	return errors.Join(problems...)
}

// entrant is the index of the entrant with this player name (or plain name, when one version
// has it), -1 if none.
func (l *List) entrant(player string) int {
	byName := -1
	for i, e := range l.Entrants {
		if e.Player() == player {
			return i
		}
		if e.Name == player {
			if byName >= 0 {
				return -1 // two versions: the version must be given
			}
			byName = i
		}
	}
	return byName
}

func (l *List) players() []string {
	names := make([]string, len(l.Entrants))
	for i, e := range l.Entrants {
		names[i] = e.Player()
	}
	return names
}

// anchor is the anchor's entrant index.
func (l *List) anchor() int { return l.entrant(l.Anchor.Entrant) }

// ID identifies the list's conditions: every record the list writes carries it, so that a
// records file of another list (or of this one under other conditions) is refused.
func (l *List) ID() string {
	key := struct {
		Name, GameType string
		Limit          []string
		Openings       openings.Config
		Adjudication   arbiter.Adjudication
		Seed           int64
	}{l.Name, l.GameType, l.Limit, l.Openings, l.Adjudication, l.Seed}
	b, _ := json.Marshal(key)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}

// Conditions are the list's conditions as a person reads them, in order: they are printed
// with every table.
func (l *List) Conditions() [][2]string {
	limit := strings.Join(l.Limit, " ")
	rows := [][2]string{
		{"Game type", l.GameType},
		{"Limit", limit},
		{"Openings", describeOpenings(l.Openings)},
		{"Adjudication", describeAdjudication(l.Adjudication)},
		{"Anchor", fmt.Sprintf("%s = %g", l.Entrants[l.anchor()].Player(), l.Anchor.Elo)},
		{"Provisional", fmt.Sprintf("until the 95%% error is at most ±%g Elo", l.ErrorTarget)},
		{"Schedule", l.describeSchedule()},
	}
	return rows
}

func (l *List) describeSchedule() string {
	s := fmt.Sprintf("gauntlets of %d game pairs against %d opponents, at most %d games an entrant, seed %d", l.Pairs, l.Opponents, l.MaxGames, l.Seed)
	if l.Mode == RoundRobin {
		s = fmt.Sprintf("round robin of %d game pairs a pairing, then ", l.Rounds) + s
	}
	return s
}

func describeOpenings(o openings.Config) string {
	switch {
	case o.Book != "":
		return "book " + o.Book
	case o.File != "":
		return "file " + o.File
	case o.RandomPlies > 0:
		return fmt.Sprintf("%d random plies", o.RandomPlies)
	}
	return "the shipped book"
}

func describeAdjudication(a arbiter.Adjudication) string {
	parts := []string{}
	if a.Repetitions > 0 {
		parts = append(parts, fmt.Sprintf("draw on %d-fold repetition", a.Repetitions))
	}
	if a.MaxPlies > 0 {
		parts = append(parts, fmt.Sprintf("draw at %d plies", a.MaxPlies))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
