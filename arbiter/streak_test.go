package arbiter_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/driver"
	con "hivearbiter/console"
	"hivearbiter/results"
)

// A run whose engine fails the same way in several games in a row stops with the reason, the
// engine and the fix, under the default abort policy: it cannot inform (an SPRT of two builds
// of an engine that dies on its first move played 100 crashed games to its cap before).
func TestFailureStreakStopsTheRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		engines []driver.EngineConfig
		culprit string
		reason  results.Reason
	}{
		// Both die on their first move: each fails every game it gets to play, and a game the
		// other lost before it moved does not break its streak.
		{"both crash", []driver.EngineConfig{engine("a", "crash@2"), engine("b", "crash@2")}, "a", results.ReasonCrash},
		{"illegal moves", []driver.EngineConfig{engine("a", "random"), engine("b", "pass@3")}, "b", results.ReasonIllegalPass},
		{"time losses", []driver.EngineConfig{engine("a", "random"), engine("b", "slow@4")}, "b", results.ReasonTimeForfeit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := baseConfig(tc.engines...)
			cfg.Rounds, cfg.Concurrency = 20, 1
			if tc.reason == results.ReasonTimeForfeit {
				for i := range cfg.Engines {
					cfg.Engines[i].Time.MoveTime, cfg.Engines[i].Margin = 200*time.Millisecond, 100*time.Millisecond
				}
			}
			tour := fakeTournament(t, cfg)
			out, err := tour.Play(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			stop := out.FailureStop
			if stop == nil || stop.Engine != tc.culprit || stop.Reason != tc.reason || stop.Games != arbiter.DefaultFailureStreak {
				t.Fatalf("FailureStop = %+v; want %s stopped after %d games by %s", stop, tc.culprit, arbiter.DefaultFailureStreak, tc.reason)
			}
			if n := len(recordsOf(t, tour)); n >= 40 || n < arbiter.DefaultFailureStreak {
				t.Errorf("%d games recorded; want the run stopped at the streak", n)
			}
			msg := stop.Message()
			for _, want := range []string{`engine "` + tc.culprit + `"`, string(tc.reason), "-on-engine-failure forfeit", "-failure-streak 0"} {
				if !strings.Contains(msg, want) {
					t.Errorf("%q does not say %s", msg, want)
				}
			}
			if got := out.Summary().Status; got != "engine-failing" {
				t.Errorf("summary status %q", got)
			}
			if !errors.As(error(stop), new(*arbiter.FailingError)) {
				t.Error("not a FailingError")
			}
		})
	}
}

// -failure-streak 0 plays on, and a run in which every game failed says so (AllFailed: the
// command exits 5).
func TestFailureStreakOffAndReset(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "crash@2"))
	cfg.Rounds, cfg.Concurrency, cfg.FailureStreak = 3, 1, -1
	out, err := fakeTournament(t, cfg).Play(context.Background())
	if err != nil || out.FailureStop != nil || out.Tally.Games != 6 {
		t.Fatalf("%v, %+v after %d games; want all 6 played", err, out.FailureStop, out.Tally.Games)
	}
	if !out.AllFailed() {
		t.Errorf("AllFailed false after %d games, %d faults; want every game failed", out.Tally.Games, out.Tally.Faults())
	}
	cfg = baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Rounds = 1
	if out, err = fakeTournament(t, cfg).Play(context.Background()); err != nil || out.AllFailed() {
		t.Errorf("%v; AllFailed %v for games played out", err, out.AllFailed())
	}
}

// Under the forfeit policy the failing engine is broken instead: it forfeits its remaining
// games and the others play on.
func TestFailureStreakUnderForfeit(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "pass@3"), engine("c", "random"))
	cfg.Rounds, cfg.Concurrency, cfg.OnEngineFailure = 3, 1, arbiter.ForfeitOnFailure
	tour := fakeTournament(t, cfg)
	out, err := tour.Play(context.Background())
	if err != nil || out.FailureStop != nil {
		t.Fatalf("%v, %+v", err, out.FailureStop)
	}
	broken := 0
	for _, r := range recordsOf(t, tour) {
		if strings.Contains(r.Detail, "is broken (it failed 3 games in a row by illegal-pass") {
			broken++
		}
	}
	if broken == 0 || out.Tally.Games != 18 {
		t.Errorf("%d games, %d forfeited by the broken b; want all 18, some forfeited", out.Tally.Games, broken)
	}
}

// The check before the first game asks each engine for its first move under its own limit:
// one that would lose on time there stops the run before any game, saying so; under the
// forfeit policy it is warned of and plays.
func TestPreflightAsksForTheFirstMove(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "slow@0"))
	for i := range cfg.Engines {
		cfg.Engines[i].Time.MoveTime, cfg.Engines[i].Margin = 200*time.Millisecond, 100*time.Millisecond
	}
	_, err := fakeTournament(t, cfg).Play(context.Background())
	var pe *arbiter.PreflightError
	if !errors.As(err, &pe) || len(pe.Failures) != 1 || pe.Failures[0].Engine != "b" ||
		!strings.Contains(err.Error(), "its first move (a 0.200 s search under st=0.2) would lose its game by time-forfeit: White (b) loses on time: it did not answer its 0.200 s search within 0.300 s") {
		t.Fatalf("err = %v; want b's first search named as a time loss", err)
	}
	cfg.OnEngineFailure, cfg.Rounds = arbiter.ForfeitOnFailure, 1
	if _, err := fakeTournament(t, cfg).Play(context.Background()); err != nil {
		t.Errorf("under forfeit: %v; want the run played", err)
	}
}

// The check before the first game judges a first move by the code that judges it in a game:
// the same reason, in the same words, for every way a first move can lose.
func TestPreflightJudgesTheFirstMoveAsAGame(t *testing.T) {
	tests := []struct {
		behaviour string
		reason    results.Reason
		detail    string
	}{
		{"random", "", ""},
		{"illegal@0", results.ReasonIllegalMove, "White (first) played the illegal move"},
		{"unreadable@0", results.ReasonIllegalMove, `White (first) answered "xyzzy", which is not a MoveString`},
		{"pass@0", results.ReasonIllegalPass, "White (first) passed although it had"},
		{"slow@0", results.ReasonTimeForfeit, "White (first) loses on time"},
		{"hang@0", results.ReasonTimeForfeit, "White (first) loses on time: it did not answer its 0.200 s search within 0.300 s"},
		{"crash@0", results.ReasonCrash, "White (first) failed on bestmove: engine exited: exit status 101"},
		{"garbage@0", results.ReasonProtocol, "White (first) failed on bestmove: no ok line"},
	}
	for _, tt := range tests {
		t.Run(tt.behaviour, func(t *testing.T) {
			e := engine("first", tt.behaviour)
			e.Time.MoveTime, e.Margin = 200*time.Millisecond, 100*time.Millisecond
			preflight, game := arbitertest.FirstMove(t, e)
			arbitertest.SameJudgement(t, preflight, game, tt.reason, tt.detail)
		})
	}
}

// finishesAfterTheStop is a runner that takes two pairs before the first game ends, then
// reports their four games one after another, each lost by b's crash: the third breaks b's
// streak and stops the run while the fourth is still in flight, as with two workers.
type finishesAfterTheStop struct {
	tour *arbiter.Tournament
	b    int // b's index among the engines
}

func (r finishesAfterTheStop) Run(ctx context.Context, d *arbiter.Dispatcher, collect func(*results.Record) error) error {
	var games []arbiter.ScheduledGame
	for range 2 {
		job, ok := d.Next()
		if !ok {
			return errors.New("the dispatcher had fewer than two pairs")
		}
		games = append(games, job.Games...)
	}
	names := r.tour.EngineNames()
	for _, g := range games {
		rec := &results.Record{Schema: results.SchemaVersion, Run: r.tour.Run(), Game: g.Index, Round: g.Round, Pair: g.Pair,
			White: results.Player{Name: names[g.White]}, Black: results.Player{Name: names[g.Black]},
			Opening: g.Opening, OpeningIndex: g.OpeningIndex, GameType: "Base+MLP",
			Reason: results.ReasonCrash, Detail: "b crashed", Moves: []results.Move{{Move: "wS1"}}}
		if g.White == r.b {
			rec.Result, rec.Culprit = results.BlackWins, "White"
		} else {
			rec.Result, rec.Culprit = results.WhiteWins, "Black"
		}
		if err := collect(rec); err != nil {
			return err
		}
	}
	return nil
}

// A game that finishes after the failure streak stopped the run is not counted, as the console
// says ("the games in flight are not counted"): with two workers, the ratinglist's failed
// entrant showed one fault more than its streak now and then, as the game beside the third
// finished first.
func TestFailureStreakCountsNoGameAfterTheStop(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Rounds = 4
	var console strings.Builder
	tour := fakeTournamentWith(t, cfg, arbiter.TournamentOptions{Observers: []arbiter.Observer{con.New(&console, con.Options{})}})
	out, err := tour.PlayOn(t.Context(), finishesAfterTheStop{tour: tour, b: 1})
	if err != nil {
		t.Fatal(err)
	}
	if out.FailureStop == nil || out.FailureStop.Games != arbiter.DefaultFailureStreak {
		t.Fatalf("FailureStop = %+v", out.FailureStop)
	}
	recs := recordsOf(t, tour)
	if len(recs) != arbiter.DefaultFailureStreak || out.Tally.Games != arbiter.DefaultFailureStreak {
		t.Errorf("%d games recorded, %d counted; want the %d of the streak:\n%s", len(recs), out.Tally.Games, arbiter.DefaultFailureStreak, console.String())
	}
	if !strings.Contains(console.String(), "finished after the run stopped: not counted") {
		t.Errorf("the console does not say the fourth game was not counted:\n%s", console.String())
	}
}
