package arbiter_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
)

// startCounter wraps the start through the protocols, counting the starts of each engine (the
// preflight starts its engines at once, so it counts under a lock); fail, if set, makes a
// start fail.
type startCounter struct {
	mu     sync.Mutex
	starts map[string]int
	fail   func(name string, n int) bool
}

func countStarts(fail func(name string, n int) bool) *startCounter {
	return &startCounter{starts: map[string]int{}, fail: fail}
}

// start is a tournament's Start that counts, and fails as fail says.
func (c *startCounter) start(ctx context.Context, e driver.EngineConfig, worker int) (driver.Player, error) {
	c.mu.Lock()
	c.starts[e.Name]++
	n := c.starts[e.Name]
	c.mu.Unlock()
	if c.fail != nil && c.fail(e.Name, n) {
		return nil, fmt.Errorf("start %d of %s: exec: no such file", n, e.Name)
	}
	return arbiter.StartThroughProtocol("")(ctx, e, worker)
}

func (c *startCounter) of(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.starts[name]
}

// Every engine is tried before the first game: two that cannot start are both named, and no
// game is played (before the preflight, the run stopped at the first game of the first of
// them, after the games before it).
func TestPreflightNamesEveryBrokenEngine(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "unstartable"), engine("c", "random"), engine("d", "unstartable"))
	cfg.Concurrency = 1
	tour := fakeTournament(t, cfg)
	_, err := tour.Play(context.Background())
	var pe *arbiter.PreflightError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want an arbiter.PreflightError", err)
	}
	var names []string
	for _, f := range pe.Failures {
		names = append(names, f.Engine)
	}
	if strings.Join(names, ",") != "b,d" || !strings.Contains(err.Error(), `"b"`) || !strings.Contains(err.Error(), `"d"`) {
		t.Errorf("failures %v, error %q: want b and d named", names, err)
	}
	var se *arbiter.EngineStartError
	if !errors.As(err, &se) {
		t.Errorf("errors.As finds no EngineStartError in %v: the command would not exit 5", err)
	}
	if data, err := os.ReadFile(tour.Config().Out); err != nil || len(data) > 0 {
		t.Errorf("records file holds %d bytes (%v), want none: no game is played", len(data), err)
	}
}

// The preflight starts a new game of the run's type: an engine that starts but fails its
// first newgame is found before any game too.
func TestPreflightStartsAGame(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "crash-newgame@0"))
	_, err := fakeTournament(t, cfg).Play(context.Background())
	var pe *arbiter.PreflightError
	if !errors.As(err, &pe) || len(pe.Failures) != 1 || pe.Failures[0].Engine != "b" || !strings.Contains(err.Error(), "a new game of Base+MLP failed") {
		t.Fatalf("err = %v, want a PreflightError for b's new game", err)
	}
}

// A resumed run tries only the engines that still have games to play.
func TestPreflightSkipsEnginesWithNoGamesLeft(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Rounds = 1
	tour := fakeTournament(t, cfg)
	if _, err := tour.Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := countStarts(nil)
	tour = fakeTournamentWith(t, tour.Config(), arbiter.TournamentOptions{Start: c.start})
	if _, err := tour.Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c.of("a")+c.of("b") != 0 {
		t.Errorf("a finished run started a %d and b %d times, want none", c.of("a"), c.of("b"))
	}
}

// forfeitRun is a round-robin of a, b and c (two rounds, one worker) in which b crashes at
// its first search of every game, and fail decides which of b's starts fail.
func forfeitRun(t *testing.T, policy arbiter.FailurePolicy, fail func(name string, n int) bool) (*arbiter.Tournament, *startCounter, error) {
	t.Helper()
	cfg := baseConfig(engine("a", "random"), engine("b", "crash@0"), engine("c", "random"))
	cfg.Rounds = 2
	cfg.Concurrency = 1
	cfg.OnEngineFailure = policy
	c := countStarts(fail)
	tour := fakeTournamentWith(t, cfg, arbiter.TournamentOptions{Start: c.start})
	_, err := tour.Play(context.Background())
	return tour, c, err
}

// With the abort policy (the default), an engine that cannot be restarted mid-run ends the
// run, as it always did.
func TestEngineFailureAborts(t *testing.T) {
	_, _, err := forfeitRun(t, "", func(name string, n int) bool { return name == "b" && n >= 3 })
	var se *arbiter.EngineStartError
	if !errors.As(err, &se) || se.Engine != "b" {
		t.Fatalf("err = %v, want an EngineStartError for b", err)
	}
}

// With the forfeit policy, an engine that cannot be started twice in a row mid-run is broken:
// its remaining games are recorded as its losses by crash, it is not started again, and the
// other games are played to the end.
func TestEngineFailureForfeitsWhenRestartFails(t *testing.T) {
	// b's starts: the preflight, its first game, then two that fail.
	tour, c, err := forfeitRun(t, arbiter.ForfeitOnFailure, func(name string, n int) bool { return name == "b" && n >= 3 })
	if err != nil {
		t.Fatal(err)
	}
	if c.of("b") != 4 {
		t.Errorf("b was started %d times, want 4 (the preflight, one game, a start that failed and its retry)", c.of("b"))
	}
	checkForfeits(t, recordsOf(t, tour), "could not be started twice in a row")
}

// An engine that starts but fails brokenGames (3) games in a row before its first move is
// broken too.
func TestEngineFailureForfeitsAfterGamesWithoutAMove(t *testing.T) {
	tour, c, err := forfeitRun(t, arbiter.ForfeitOnFailure, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.of("b") != 4 {
		t.Errorf("b was started %d times, want 4 (the preflight and its first 3 games)", c.of("b"))
	}
	checkForfeits(t, recordsOf(t, tour), "failed 3 games in a row before its first move")
}

// checkForfeits checks a run of forfeitRun: every game is recorded, b loses each of its
// games by crash, and those after it broke say why; a and c play theirs out.
func checkForfeits(t *testing.T, recs []results.Record, why string) {
	t.Helper()
	if len(recs) != 12 {
		t.Fatalf("%d records, want the 12 games of the schedule", len(recs))
	}
	forfeits := 0
	for _, r := range recs {
		switch {
		case r.White.Name == "b" || r.Black.Name == "b":
			if r.ScoreOf("b") != 0 || r.Reason != results.ReasonCrash {
				t.Errorf("game %d: %s by %s, want b to lose by crash", r.Game, r.Result, r.Reason)
			}
			if strings.Contains(r.Detail, "is broken") {
				forfeits++
				if !strings.Contains(r.Detail, why) || len(r.Moves) != 0 {
					t.Errorf("game %d: %q after %d moves, want a forfeit without a move that says %q", r.Game, r.Detail, len(r.Moves), why)
				}
			}
		case r.Reason.IsFault():
			t.Errorf("game %d between a and c: %s (%s), want a game played out", r.Game, r.Reason, r.Detail)
		}
	}
	if forfeits == 0 {
		t.Error("no game of b is a forfeit of a broken engine")
	}
}
