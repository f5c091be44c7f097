package arbitertest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
)

// FirstMove judges engine's first move of a Base+MLP game twice: by the check before the first
// game (Tournament.Preflight), and as White's first move of a game against a random player.
// It returns the preflight's judgement (nil when the move passed) and the game's record, which
// ends after that move (a move-limit draw when the move is good), so that a protocol's test
// can hold that the two judge alike. The test fails when the preflight fails for another
// reason than the first move.
func FirstMove(t testing.TB, engine driver.EngineConfig) (*arbiter.FirstMoveError, *results.Record) {
	t.Helper()
	const commandTimeout, depthTimeout = 5 * time.Second, 10 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	opponent := driver.EngineConfig{Name: "opponent", Protocol: Name, Command: []string{"random"}, Time: engine.Time}
	tour, err := arbiter.NewTournament(arbiter.Config{
		Format: arbiter.RoundRobin, Engines: []driver.EngineConfig{engine, opponent}, Rounds: 1, GamesPerPairing: 2,
		GameType: "Base+MLP", Concurrency: 1, Seed: 1, Out: filepath.Join(t.TempDir(), "games.jsonl"),
		CommandTimeout: commandTimeout, DepthTimeout: depthTimeout,
	}, arbiter.TournamentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var judged *arbiter.FirstMoveError
	if err := tour.Preflight(ctx, []int{0}); err != nil && !errors.As(err, &judged) {
		t.Fatalf("preflight of %s: %v; want its first move judged or passed", engine.Name, err)
	}

	white, err := driver.Start(ctx, engine, driver.StartEnv{Grace: 300 * time.Millisecond})
	if err != nil {
		t.Fatalf("starting %s: %v", engine.Name, err)
	}
	defer white.Close(context.Background())
	rec, err := arbiter.PlayGame(ctx, arbiter.GameConfig{
		Opening: "Base+MLP", CommandTimeout: commandTimeout, DepthTimeout: depthTimeout,
		Adjudication: arbiter.Adjudication{MaxPlies: 1},
	}, arbiter.Side{Name: engine.Name, Player: white, Time: engine.Time, Margin: engine.Margin},
		arbiter.Side{Name: opponent.Name, Player: New(opponent.Name, 1), Time: opponent.Time})
	if err != nil {
		t.Fatal(err)
	}
	return judged, rec
}

// JudgesFirstMoveAsAGame is a protocol's test that the check before the first game judges an
// engine's first move as a game does: FirstMove and SameJudgement, the engine searching for
// 0.3 s with a margin of 0.2 s.
func JudgesFirstMoveAsAGame(t testing.TB, engine driver.EngineConfig, want results.Reason, detail string) {
	t.Helper()
	engine.Time, engine.Margin = driver.TimeControl{MoveTime: 300 * time.Millisecond}, 200*time.Millisecond
	preflight, game := FirstMove(t, engine)
	SameJudgement(t, preflight, game, want, detail)
	if preflight != nil {
		t.Logf("preflight: %v", preflight)
	}
}

// TestBinaryEngine is an engine of a protocol that runs the test binary itself, which becomes
// the fake its environment entry env (KEY=VALUE) names, as os/exec's tests do.
func TestBinaryEngine(name, protocol, env string) driver.EngineConfig {
	return driver.EngineConfig{Name: name, Protocol: protocol, Command: []string{os.Args[0]}, Env: []string{env}}
}

// SameJudgement fails the test unless the preflight's judgement of a first move and the game's
// agree: both passed it, or both end the game by the same reason (want), with detail in both
// details.
func SameJudgement(t testing.TB, preflight *arbiter.FirstMoveError, game *results.Record, want results.Reason, detail string) {
	t.Helper()
	if want == "" {
		if preflight != nil || game.Reason.IsFault() {
			t.Fatalf("preflight: %v; game: %s: %s; want the first move to pass both", preflight, game.Reason, game.Detail)
		}
		return
	}
	if preflight == nil {
		t.Fatalf("the preflight passed the first move; the game: %s: %s; want both %s", game.Reason, game.Detail, want)
	}
	if preflight.Reason != want || game.Reason != want || game.Culprit != "White" {
		t.Fatalf("preflight: %s: %s\ngame: %s (culprit %q): %s\nwant both %s", preflight.Reason, preflight.Detail, game.Reason, game.Culprit, game.Detail, want)
	}
	for _, d := range []string{preflight.Detail, game.Detail, preflight.Error()} {
		if !strings.Contains(d, detail) {
			t.Errorf("%q does not say %q", d, detail)
		}
	}
}
