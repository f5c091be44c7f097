package check

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// PlaySuite is the suite of a protocol whose players are judged by play alone: they keep
// no state the arbiter could query. It starts them through the protocol's own Start, as a
// match does, and checks the settings (the protocol's Validate), the start and the player's
// greeting (its ID), a first move in time and games against the referee, and a clean
// close. err is set only when the player could not be started at all.
func PlaySuite(ctx context.Context, p driver.Protocol, e driver.EngineConfig, opts compliance.Options, rows compliance.PlayerRows) ([]compliance.Result, error) {
	var s *compliance.Session[driver.Player]
	s = compliance.NewSession(ctx, opts, func(ctx context.Context) (driver.Player, error) {
		return p.Start(ctx, e, driver.StartEnv{Grace: s.Options().Grace})
	})
	defer s.Close()
	if err := driver.Validate(e); err != nil {
		s.Fail(rows.Settings, err.Error())
	} else {
		s.Pass(rows.Settings, rows.SettingsDetail)
	}
	player, err := s.Begin(rows.Greeting)
	if err != nil {
		return s.Results(), err
	}
	if id := player.Info().ID; id != "" {
		s.Pass(rows.Greeting, fmt.Sprintf("%q", id))
	} else {
		s.Fail(rows.Greeting, "it gave no name")
	}
	checkPlays(s, e)
	s.CheckClose(rows.Close)
	return s.Results(), nil
}

// checkCommandTimeout bounds every command of a check but a search.
const checkCommandTimeout = 5 * time.Second

// checkPlays runs the checks of PlaySuite that play, as a match plays (the arbiter's own
// game loop, with the player started through its protocol): a first move within the engine's
// time, then the session's games against the referee, which plays random legal moves, from
// random openings of each game type the player plays, taking each colour in turn. Every
// answer is refereed; an illegal or malformed one, a late one, a crash fails its game's
// check, with the record's detail, which quotes what the player said.
func checkPlays(s *compliance.Session[driver.Player], e driver.EngineConfig) {
	tc := e.Time
	if tc.IsZero() {
		tc = driver.TimeControl{MoveTime: time.Second}
	}
	name := cmp.Or(e.Name, e.DefaultName(), "engine")
	types, ok := checkFirstMove(s, name, tc)
	if !ok {
		return
	}
	for i := range s.Options().Games {
		if s.Context().Err() != nil {
			return
		}
		checkGame(s, name, tc, types[i%len(types)], i)
	}
}

// checkSides sets up a game of the player under check, playing colour, against the referee's
// random mover.
func checkSides(s *compliance.Session[driver.Player], p driver.Player, name string, tc driver.TimeControl, colour int) (white, black arbiter.Side) {
	sides := [2]arbiter.Side{
		{Name: name, Player: p, Time: tc, Margin: s.Options().Margin},
		{Name: "referee", Player: &randomMover{rng: s.Rand()}, Time: tc, Margin: s.Options().Margin},
	}
	if colour == 1 {
		sides[0], sides[1] = sides[1], sides[0]
	}
	return sides[0], sides[1]
}

// checkFirstMove times the player's first answer in a game it plays White: within its time and
// the margin, as the clock judges it. Whether the answer is legal is the games' to judge. It
// returns the game types the player plays (Base and the widest it says it plays, Base+MLP
// when it does not say), and false when the games are not worth playing.
func checkFirstMove(s *compliance.Session[driver.Player], name string, tc driver.TimeControl) ([]rules.GameType, bool) {
	check := fmt.Sprintf("first move within its time (%s)", tc)
	p, ok := s.Engine(check)
	if !ok {
		return nil, false
	}
	types := []rules.GameType{rules.Base, rules.BaseMLP}
	if info := p.Info(); info.ExpansionsKnown && info.Expansions != rules.Base {
		types[1] = info.Expansions
	} else if info.ExpansionsKnown {
		types = types[:1]
	}
	white, black := checkSides(s, p, name, tc, 0)
	cfg := arbiter.GameConfig{Run: "check", Opening: rules.BaseMLP.String(), CommandTimeout: checkCommandTimeout, DepthTimeout: checkCommandTimeout}
	g, err := arbiter.NewGame(cfg, white, black)
	if err != nil {
		s.Fail(check, err.Error())
		return nil, false
	}
	s.Restart() // the game is left unfinished
	began := time.Now()
	if !g.Start(s.Context()) {
		s.Fail(check, g.Record().Detail)
		return nil, false
	}
	g.Step(s.Context())
	took := time.Since(began).Milliseconds()
	rec := g.Record()
	switch {
	case s.Context().Err() != nil:
		return nil, false
	case rec.Reason == results.ReasonTimeForfeit || rec.Reason == results.ReasonStall || rec.Reason == results.ReasonCrash:
		s.Fail(check, rec.Detail)
		s.Skip("games against the referee", "its first move did not come (see above)")
		return nil, false
	case rec.Reason != "":
		s.Pass(check, fmt.Sprintf("answered in %d ms (what it answered is judged in the games below)", took))
	default:
		s.Pass(check, fmt.Sprintf("%s in %d ms", rec.Moves[0].Move, took))
	}
	return types, true
}

// checkGame plays game i of the check and judges it as a match would.
func checkGame(s *compliance.Session[driver.Player], name string, tc driver.TimeControl, t rules.GameType, i int) {
	colour := i % 2
	openingPlies := s.Rand().IntN(5)
	opening := s.Position(t, openingPlies)
	check := fmt.Sprintf("game %d: %s as %s from a random %d-ply opening", i+1, t, rules.Color(colour).String(), openingPlies)
	p, ok := s.Engine(check)
	if !ok {
		return
	}
	white, black := checkSides(s, p, name, tc, colour)
	cfg := arbiter.GameConfig{Run: "check", Index: i + 1, Opening: opening.GameString(), CommandTimeout: checkCommandTimeout,
		DepthTimeout: checkCommandTimeout, Adjudication: arbiter.Adjudication{MaxPlies: opening.Ply() + s.Options().Plies}}
	rec, err := arbiter.PlayGame(s.Context(), cfg, white, black)
	switch {
	case err != nil:
		s.Fail(check, err.Error())
		return
	case rec.Culprit != "":
		s.Fail(check, rec.Detail)
		return
	}
	answers, slowest := 0, int64(0)
	for j, m := range rec.Moves {
		if (opening.Ply()+j)%2 == colour {
			answers++
			slowest = max(slowest, m.Millis)
		}
	}
	detail := fmt.Sprintf("%d answers, all legal, the slowest in %d ms; %s: %s", answers, slowest, rec.Result, rec.Detail)
	for _, w := range rec.Warnings {
		detail += "; warning: " + w.Text
	}
	s.Pass(check, detail)
}

// randomMover is the opponent of a player under check: the referee itself, answering a
// uniformly random legal move at once.
type randomMover struct {
	rng  *rand.Rand
	game *rules.Game
}

func (m *randomMover) Info() driver.PlayerInfo {
	return driver.PlayerInfo{ID: "the referee's random mover"}
}

func (m *randomMover) NewGame(_ context.Context, gameString string) (string, error) {
	g, err := rules.ParseGameString(gameString)
	m.game = g
	return "", err
}

func (m *randomMover) Play(_ context.Context, move string) (string, error) {
	return "", m.game.Play(move)
}

func (m *randomMover) BestMove(context.Context, driver.SearchLimit) (string, error) {
	valid := m.game.ValidMoves()
	return m.game.MoveString(valid[m.rng.IntN(len(valid))]), nil
}

func (m *randomMover) Close(context.Context) error { return nil }
