package arbiter_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/console"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/results"
)

func TestDispatcherHandsOutPairsOnce(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "random"), engine("c", "random"))
	cfg.Rounds = 2 // 6 pairs
	tour := fakeTournament(t, cfg)
	schedule := tour.Schedule()
	played := map[int]bool{4: true, 5: true, 7: true} // pair 2 whole, and half of pair 3
	d := arbiter.NewDispatcher(schedule, func(i int) bool { return !played[i] })
	var got []arbiter.PairJob
	for {
		job, ok := d.Next()
		if !ok {
			break
		}
		got = append(got, job)
		if len(got) == 1 {
			d.Return(job) // its runner was lost: handed out again, first
		}
	}
	if len(got) != schedule.Len()/2 {
		t.Fatalf("%d jobs for %d pairs, 1 played and 1 returned", len(got), schedule.Len()/2)
	}
	if got[0].Pair != 0 || got[1].Pair != 0 || got[2].Pair != 1 || got[3].Pair != 3 {
		t.Errorf("pairs in the order %d %d %d %d, want 0 0 1 3", got[0].Pair, got[1].Pair, got[2].Pair, got[3].Pair)
	}
	if g := got[3].Games; len(g) != 1 || g[0].Index != 6 {
		t.Errorf("pair 3 hands out %+v, want only game 6", g)
	}
	d.Stop()
	d.Return(got[0])
	if _, ok := d.Next(); ok {
		t.Error("a stopped dispatcher handed out a pair")
	}
}

// losingRunner loses its first pair (as a worker that dies would) and then plays like the
// local runner: the lost pair must be played, once.
type losingRunner struct{ local *arbiter.LocalRunner }

func (r losingRunner) Run(ctx context.Context, d *arbiter.Dispatcher, collect func(*results.Record) error) error {
	job, ok := d.Next()
	if ok {
		d.Return(job)
	}
	return r.local.Run(ctx, d, collect)
}

// countingObserver counts what it sees.
type countingObserver struct {
	mu                     sync.Mutex
	started, moves, ended  int
	lastPlayed, lastScored int
}

func (o *countingObserver) GameStarted(arbiter.ScheduledGame, string, string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.started++
}

func (o *countingObserver) MovePlayed(int, results.Move) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.moves++
}

func (o *countingObserver) GameFinished(r *results.Record, s arbiter.Standings) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ended++
	o.lastScored = s.Tally.Games
}

func TestTournamentRunnerAndObserverSeams(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Rounds = 3
	obs := &countingObserver{}
	tour := fakeTournamentWith(t, cfg, arbiter.TournamentOptions{Observers: []arbiter.Observer{obs}})
	if _, err := tour.PlayOn(context.Background(), losingRunner{tour.LocalRunner()}); err != nil {
		t.Fatal(err)
	}
	recs := recordsOf(t, tour)
	seen := map[int]bool{}
	moves := 0
	for _, r := range recs {
		if seen[r.Game] {
			t.Errorf("game %d recorded twice", r.Game)
		}
		seen[r.Game] = true
		moves += len(r.Moves)
	}
	if len(recs) != 6 {
		t.Fatalf("%d records, want the 6 scheduled games once each", len(recs))
	}
	if obs.started != 6 || obs.ended != 6 || obs.moves != moves || obs.lastScored != 6 {
		t.Errorf("observer saw %d starts, %d ends, %d moves, standings of %d games; want 6, 6, %d, 6", obs.started, obs.ended, obs.moves, obs.lastScored, moves)
	}
}

// printingRunner prints a line of its own through the tournament's console, as a remote
// runner reports workers joining, and then plays like the local runner.
type printingRunner struct {
	console io.Writer
	local   *arbiter.LocalRunner
}

func (r printingRunner) Run(ctx context.Context, d *arbiter.Dispatcher, collect func(*results.Record) error) error {
	fmt.Fprintf(r.console, "Worker w1 joined\n")
	return r.local.Run(ctx, d, collect)
}

// TestRunnerPrintsUnderTheLiveLine: a runner's own lines go through the console, so they are
// written on a cleared row and do not overwrite the live line.
func TestRunnerPrintsUnderTheLiveLine(t *testing.T) {
	var con syncbuf.Buffer
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Concurrency = 1
	lines := console.New(&con, console.Options{Progress: true})
	tour := fakeTournamentWith(t, cfg, arbiter.TournamentOptions{Observers: []arbiter.Observer{lines}})
	if _, err := tour.PlayOn(context.Background(), printingRunner{lines, tour.LocalRunner()}); err != nil {
		t.Fatal(err)
	}
	if out := con.String(); !strings.Contains(out, clearLine+"Worker w1 joined\n") {
		t.Errorf("the runner's line was not written on a cleared row:\n%q", out)
	}
}

// reportingRunner plays like the local runner and adds a line of its own to each result block,
// as a remote runner names its workers.
type reportingRunner struct{ *arbiter.LocalRunner }

func (reportingRunner) WriteReport(w io.Writer) { fmt.Fprintln(w, "Workers: w1") }

// TestReporterAddsToTheResultBlocks: a runner that is a console.Reporter writes its lines
// after the console's Report, in the same block.
func TestReporterAddsToTheResultBlocks(t *testing.T) {
	var con syncbuf.Buffer
	report := func(w io.Writer, r arbiter.StandingsReport) {
		fmt.Fprintf(w, "Report of %d games, final %v\n", r.Standings.Tally.Games, r.Final)
	}
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Rounds, cfg.RatingInterval = 2, 1
	tour := fakeTournamentWith(t, cfg, arbiter.TournamentOptions{Observers: []arbiter.Observer{console.New(&con, console.Options{Report: report})}})
	if _, err := tour.PlayOn(context.Background(), reportingRunner{tour.LocalRunner()}); err != nil {
		t.Fatal(err)
	}
	out := con.String()
	if !strings.Contains(out, "final false\nWorkers: w1\n") || !strings.HasSuffix(out, "Report of 4 games, final true\nWorkers: w1\n") {
		t.Errorf("the runner's line does not follow each report:\n%s", out)
	}
}

// eventLog is an EventObserver that keeps the names of the events it hears, in order.
type eventLog struct {
	countingObserver
	mu     sync.Mutex
	events []string
}

func (o *eventLog) Event(e arbiter.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	name := fmt.Sprintf("%T", e)
	if r, ok := e.(arbiter.StandingsReport); ok && r.Final {
		name += " final"
	}
	o.events = append(o.events, strings.TrimPrefix(name, "arbiter."))
}

// TestEventObserverHearsTheRun: an observer that is an EventObserver hears a run as data, in
// the order the console prints it: the start, each local game's start and end around its
// finish, the periodic and final reports after the games have ended; a resumed run says so
// first. A plain Observer beside it still sees the games.
func TestEventObserverHearsTheRun(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Rounds, cfg.RatingInterval, cfg.Concurrency = 2, 1, 1
	log := &eventLog{}
	tour := fakeTournamentWith(t, cfg, arbiter.TournamentOptions{Observers: []arbiter.Observer{log}})
	if _, err := tour.Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(log.events, " ")
	game := "LocalGameStarted LocalGameEnded"
	want := strings.Join([]string{"RunStarted", game, game, "StandingsReport", game, game, "StandingsReport", "GamesEnded", "StandingsReport final", "GamesEnded"}, " ")
	if got != want {
		t.Errorf("events:\n%s\nwant\n%s", got, want)
	}
	if log.started != 4 || log.ended != 4 {
		t.Errorf("the observer saw %d starts and %d ends of 4 games", log.started, log.ended)
	}

	more := cfg
	more.Rounds, more.Out = 3, tour.Config().Out
	log = &eventLog{}
	if _, err := fakeTournamentWith(t, more, arbiter.TournamentOptions{Observers: []arbiter.Observer{log}}).Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(log.events) < 2 || log.events[0] != "RunResumed" || log.events[1] != "RunStarted" {
		t.Errorf("a resumed run's events begin %v, want RunResumed, RunStarted", log.events[:min(len(log.events), 2)])
	}
}
