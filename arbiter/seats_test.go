package arbiter_test

import (
	"context"
	"errors"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// TestSeatLifecycle follows the players of one seat pool through games: started when first
// seated, kept between games, restarted after a fault or for every game with restart=on, and
// all closed at the end.
func TestSeatLifecycle(t *testing.T) {
	restarting := engine("r", "random")
	restarting.Restart = true
	var started []*arbitertest.Player
	seats := &arbiter.Seats{
		Engines:  []driver.EngineConfig{engine("a", "random"), engine("b", "random"), restarting},
		GameType: rules.BaseMLP,
		Start: func(ctx context.Context, e driver.EngineConfig, worker int) (driver.Player, error) {
			p, err := arbitertest.Protocol{}.Start(ctx, e, driver.StartEnv{Worker: worker})
			if err == nil {
				started = append(started, p.(*arbitertest.Player))
			}
			return p, err
		},
	}
	ctx := context.Background()
	game := func(white, black int, culprit string) (starts int) {
		t.Helper()
		before := len(started)
		sg := arbiter.ScheduledGame{White: white, Black: black}
		w, b, err := seats.Sides(ctx, sg)
		if err != nil {
			t.Fatal(err)
		}
		if w.Name != seats.Engines[white].Name || b.Name != seats.Engines[black].Name || w.Time != seats.Engines[white].Time {
			t.Errorf("sides %s and %s, want the engines %d and %d", w.Name, b.Name, white, black)
		}
		seats.Played(ctx, sg, &results.Record{Culprit: culprit})
		return len(started) - before
	}
	for i, tc := range []struct {
		name         string
		white, black int
		culprit      string
		wantStarts   int
		wantClosed   int
	}{
		{"first game: both started", 0, 1, "", 2, 0},
		{"second game: both kept", 1, 0, "", 0, 0},
		{"white misbehaves", 0, 1, "White", 0, 1},
		{"the culprit is started again, the other kept", 0, 1, "", 1, 1},
		{"restart=on: started", 2, 0, "", 1, 2},
		{"restart=on: started again", 0, 2, "", 1, 3},
	} {
		if got := game(tc.white, tc.black, tc.culprit); got != tc.wantStarts {
			t.Errorf("game %d (%s): %d players started, want %d", i+1, tc.name, got, tc.wantStarts)
		}
		closed := 0
		for _, p := range started {
			if p.Closed() {
				closed++
			}
		}
		if closed != tc.wantClosed {
			t.Errorf("after game %d (%s): %d players closed, want %d", i+1, tc.name, closed, tc.wantClosed)
		}
	}
	seats.Close(ctx)
	for i, p := range started {
		if !p.Closed() {
			t.Errorf("player %d still open after Close", i+1)
		}
	}
}

// TestSeatRefusals: an engine that cannot start, or does not play the game type, is an
// EngineStartError that names it (the player that was started is closed); an ended context is
// the context's error.
func TestSeatRefusals(t *testing.T) {
	var narrow *arbitertest.Player
	seats := &arbiter.Seats{
		Engines:  []driver.EngineConfig{engine("a", "random"), engine("narrow", "random"), engine("gone", "unstartable")},
		GameType: rules.BaseMLP,
		Start: func(ctx context.Context, e driver.EngineConfig, worker int) (driver.Player, error) {
			p, err := arbitertest.Protocol{}.Start(ctx, e, driver.StartEnv{})
			if err != nil || e.Name != "narrow" {
				return p, err
			}
			narrow = p.(*arbitertest.Player).SetPlays(rules.BaseM)
			return narrow, nil
		},
	}
	ctx := context.Background()
	var se *arbiter.EngineStartError
	var xe *arbiter.ExpansionError
	if _, err := seats.Seat(ctx, 1); !errors.As(err, &se) || se.Engine != "narrow" || !errors.As(err, &xe) {
		t.Errorf("an engine without the game type's expansions: err = %v, want an EngineStartError with an ExpansionError", err)
	}
	if narrow == nil || !narrow.Closed() {
		t.Errorf("the player refused for its expansions was not closed")
	}
	if _, err := seats.Seat(ctx, 2); !errors.As(err, &se) || se.Engine != "gone" {
		t.Errorf("an engine that cannot start: err = %v, want an EngineStartError for it", err)
	}
	ended, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := seats.Seat(ended, 2); !errors.Is(err, context.Canceled) || errors.As(err, &se) {
		t.Errorf("an ended context: err = %v, want context.Canceled", err)
	}
}
