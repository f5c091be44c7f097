package arbiter_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/driver"
)

// playModes are the ways a game tells its players a move, each test of a game's end played
// in all of them: one player after the other (Play), both at once (PlayStarter, as UHP
// engines are told), and White at once with a Black that can only Play.
var playModes = []struct {
	name  string
	sides func(t *testing.T, white, black driver.Player) [2]driver.Player
}{
	{"one-after-the-other", func(_ *testing.T, white, black driver.Player) [2]driver.Player {
		return [2]driver.Player{white, black}
	}},
	{"side-by-side", func(t *testing.T, white, black driver.Player) [2]driver.Player {
		calls := &callLog{}
		t.Cleanup(func() { calls.check(t, true) })
		return [2]driver.Player{&starter{Player: white, side: "w", calls: calls}, &starter{Player: black, side: "b", calls: calls}}
	}},
	{"mixed", func(t *testing.T, white, black driver.Player) [2]driver.Player {
		calls := &callLog{}
		t.Cleanup(func() { calls.check(t, false) })
		return [2]driver.Player{&starter{Player: white, side: "w", calls: calls}, black}
	}},
}

// starter is a Player that can be told a move and answer it apart (driver.PlayStarter), as a
// UHP engine is: its answer is its Player's, played when it is waited for.
type starter struct {
	driver.Player
	side  string
	calls *callLog

	started bool
	move    string
}

func (s *starter) StartPlay(ctx context.Context, move string) error {
	s.calls.add("start " + s.side)
	if s.started {
		return errors.New("a play started while one was waiting")
	}
	s.started, s.move = true, move
	return nil
}

func (s *starter) WaitPlay(ctx context.Context) (string, error) {
	s.calls.add("wait " + s.side)
	if !s.started {
		return "", errors.New("WaitPlay without a play started")
	}
	s.started = false
	return s.Player.Play(ctx, s.move)
}

func (s *starter) Play(ctx context.Context, move string) (string, error) {
	s.calls.add("play " + s.side)
	return s.Player.Play(ctx, move)
}

func (s *starter) BestMove(ctx context.Context, limit driver.SearchLimit) (string, error) {
	s.calls.add("bestmove")
	return s.Player.BestMove(ctx, limit)
}

// callLog is the order in which a game called its starters.
type callLog struct{ calls []string }

func (l *callLog) add(call string) { l.calls = append(l.calls, call) }

// check checks that every move was told as the mode says: both players started, then both
// waited for, in that order, when both are starters; a lone starter played one after the
// other. A play started is always waited for, whatever its answer or the other player's.
func (l *callLog) check(t *testing.T, both bool) {
	t.Helper()
	ply := []string{"start w", "start b", "wait w", "wait b"}
	if !both {
		ply = []string{"play w"}
	}
	for i := 0; i < len(l.calls); {
		if l.calls[i] == "bestmove" {
			i++
			continue
		}
		if !slices.Equal(l.calls[i:min(i+len(ply), len(l.calls))], ply) {
			t.Errorf("the game told its players a move by %q; want %q (calls: %s)", l.calls[i:min(i+len(ply), len(l.calls))], ply, strings.Join(l.calls, ", "))
			return
		}
		i += len(ply)
	}
}

// A game between two starters sends each move to both before it reads either answer, and
// plays the same game as one that tells them one after the other.
func TestMovesAreToldToBothPlayersAtOnce(t *testing.T) {
	var games [3]string
	for i, mode := range playModes {
		players := mode.sides(t, arbitertest.New("a", 7), arbitertest.New("b", 8))
		rec, err := arbiter.PlayGame(t.Context(), testGameConfig(), fastSide("a", players[0]), fastSide("b", players[1]))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Reason.IsFault() || len(rec.Moves) < 10 {
			t.Fatalf("%s: %d moves, %s: %s", mode.name, len(rec.Moves), rec.Reason, rec.Detail)
		}
		games[i] = fmt.Sprintf("%s %s %s", rec.Result, rec.Reason, rec.GameString)
	}
	if games[0] != games[1] || games[0] != games[2] {
		t.Errorf("the modes played different games:\n%s", strings.Join(games[:], "\n"))
	}
}

// When both players fail to play the same move, White is judged first, as when they are told
// one after the other; whichever answers first, a slow failure of White's included.
func TestBothFailingToPlayBlamesWhite(t *testing.T) {
	for _, faults := range [][2]string{{"reject-play", "reject-play"}, {"stall-play", "reject-play"}, {"reject-play", "stall-play"}} {
		for _, mode := range playModes {
			t.Run(faults[0]+"+"+faults[1]+"/"+mode.name, func(t *testing.T) {
				// The fault comes at the first play of ply 4 or later: the same move for both.
				white, black := arbitertest.New("w", 3).Misbehave(faults[0], 4), arbitertest.New("b", 4).Misbehave(faults[1], 4)
				players := mode.sides(t, white, black)
				rec, err := arbiter.PlayGame(t.Context(), testGameConfig(), fastSide("w", players[0]), fastSide("b", players[1]))
				if err != nil {
					t.Fatal(err)
				}
				if rec.Culprit != "White" || !strings.HasPrefix(rec.Detail, "White (w)") || len(rec.Moves) != 5 {
					t.Errorf("after %d moves, culprit %q: %s; want White at the fifth move", len(rec.Moves), rec.Culprit, rec.Detail)
				}
			})
		}
	}
}

// brokenStart is a starter whose at-th StartPlay fails, as a UHP engine's does when its pipe
// is gone.
type brokenStart struct {
	*starter
	at, n int
}

func (b *brokenStart) StartPlay(ctx context.Context, move string) error {
	if b.n++; b.n == b.at {
		b.calls.add("start " + b.side + " failed")
		return errors.New("the engine's input is closed")
	}
	return b.starter.StartPlay(ctx, move)
}

// When White cannot even be sent a move, the game ends there on White's failure, and Black is
// not sent it (nor waited for): it is a healthy engine with nothing to answer.
func TestWhiteFailingToTakeAMoveIsNotToldToBlack(t *testing.T) {
	calls := &callLog{}
	white := &brokenStart{starter: &starter{Player: arbitertest.New("w", 3), side: "w", calls: calls}, at: 3}
	black := &starter{Player: arbitertest.New("b", 4), side: "b", calls: calls}
	rec, err := arbiter.PlayGame(t.Context(), testGameConfig(), fastSide("w", white), fastSide("b", black))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Culprit != "White" {
		t.Errorf("culprit %q: %s; want White", rec.Culprit, rec.Detail)
	}
	i := slices.Index(calls.calls, "start w failed")
	if i < 0 {
		t.Fatalf("White's third start never failed: %s", strings.Join(calls.calls, ", "))
	}
	for _, c := range calls.calls[i+1:] {
		if strings.HasSuffix(c, " b") {
			t.Errorf("after White's failed start the game called %q: %s", c, strings.Join(calls.calls, ", "))
		}
	}
}
