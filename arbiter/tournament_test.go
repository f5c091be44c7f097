package arbiter_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/driver"
	"hivearbiter/console"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/openings"

	"hivearbiter/results"
	"hivearbiter/rules"
)

// fakeTournament configures a tournament of in-process fake players. An engine's Command names
// its behaviour: "random" plays random legal moves; "FAULT@PLY" misbehaves from that ply on.
func fakeTournament(t testing.TB, cfg arbiter.Config) *arbiter.Tournament {
	t.Helper()
	return fakeTournamentWith(t, cfg, arbiter.TournamentOptions{})
}

// fakeTournamentWith is fakeTournament played and shown as opts say.
func fakeTournamentWith(t testing.TB, cfg arbiter.Config, opts arbiter.TournamentOptions) *arbiter.Tournament {
	t.Helper()
	if cfg.Out == "" {
		cfg.Out = filepath.Join(t.TempDir(), "games.jsonl")
	}
	tour, err := arbiter.NewTournament(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return tour
}

// engine is a test player. The test players answer at once, so their time control only
// bounds a machine too loaded to schedule them: it is generous, so that no tournament test
// depends on the machine's load (none of them tests timing).
func engine(name, behaviour string) driver.EngineConfig {
	return driver.EngineConfig{Name: name, Command: []string{behaviour}, Protocol: arbitertest.Name, Time: driver.TimeControl{MoveTime: 5 * time.Second}, Margin: time.Second}
}

func baseConfig(engines ...driver.EngineConfig) arbiter.Config {
	return arbiter.Config{Engines: engines, GameType: "Base+MLP", Concurrency: 2, Seed: 5,
		Adjudication: arbiter.Adjudication{MaxPlies: 120}, Openings: openings.Config{RandomPlies: 2}, CommandTimeout: 5 * time.Second}
}

// A library caller gets the JSON summary that Config.JSONOut asks for, as arbiter match -json
// does: the tournament writes it, not the command.
func TestTournamentWritesTheJSONSummary(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Rounds = 1
	cfg.JSONOut = filepath.Join(t.TempDir(), "summary.json")
	if _, err := fakeTournament(t, cfg).Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(cfg.JSONOut)
	if err != nil {
		t.Fatal(err)
	}
	var sum results.Summary
	if err := json.Unmarshal(data, &sum); err != nil || sum.Status != "finished" || sum.Games != 2 || len(sum.Engines) != 2 {
		t.Errorf("summary %+v (%v), want a finished run of 2 games between 2 engines:\n%s", sum, err, data)
	}
}

func TestTournamentRecordsEveryGameOnce(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Rounds = 3
	cfg.PGNOut = filepath.Join(t.TempDir(), "games.pgn")
	tour := fakeTournament(t, cfg)
	out, err := tour.Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if out.Tally.Games != 6 || out.Scheduled != 6 {
		t.Fatalf("%d games counted of %d scheduled, want 6", out.Tally.Games, out.Scheduled)
	}
	onDisk := recordsOf(t, tour)
	if len(onDisk) != 6 {
		t.Fatalf("records file holds %d games", len(onDisk))
	}
	for i, r := range onDisk {
		if r.Game != i || r.Run != tour.Run() {
			t.Errorf("record %d is game %d of run %s", i, r.Game, r.Run)
		}
	}
	// Every PGN the arbiter writes loads back through the referee as the same game.
	f, err := os.Open(cfg.PGNOut)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := results.ParsePGN(f)
	if err != nil || len(games) != 6 {
		t.Fatalf("PGN holds %d games (%v)", len(games), err)
	}
	// Games are written as they finish, so match them to records by content.
	recorded := map[string]int{}
	for _, r := range onDisk {
		recorded[r.GameString+" "+r.Result]++
	}
	for i, g := range games {
		replayed, err := rules.ParseGameString(g.GameString())
		if err != nil {
			t.Fatalf("PGN game %d does not replay: %v", i, err)
		}
		key := replayed.GameString() + " " + g.Result
		if recorded[key] == 0 {
			t.Errorf("PGN game %d (%s) matches no record", i, key)
		}
		recorded[key]--
	}

	// Running again resumes: nothing is replayed.
	again := fakeTournament(t, cfg)
	out2, err := again.Play(context.Background())
	if err != nil || out2.Tally.Games != 6 {
		t.Fatalf("resume of a finished run: %d games counted, %v", out2.Tally.Games, err)
	}
	if recs, _ := results.ReadFile(tour.Config().Out); len(recs) != 6 {
		t.Errorf("resume of a finished run wrote %d records", len(recs))
	}

	// More rounds extend the same run.
	cfg.Rounds = 4
	more := fakeTournament(t, cfg)
	if more.Run() != tour.Run() {
		t.Fatal("changing the number of rounds changed the run's identity")
	}
	out3, err := more.Play(context.Background())
	if err != nil || out3.Tally.Games != 8 || len(recordsOf(t, more)) != 8 {
		t.Fatalf("extended run: %d games counted, %v", out3.Tally.Games, err)
	}
}

func TestTournamentInterruptedResumes(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Rounds = 4
	cfg.Out = filepath.Join(t.TempDir(), "games.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	var con syncbuf.Buffer
	tour := fakeTournamentWith(t, cfg, arbiter.TournamentOptions{Observers: []arbiter.Observer{console.New(&con, console.Options{})}})
	go func() {
		for !strings.Contains(con.String(), "Finished game") {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	out, err := tour.Play(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(recordsOf(t, tour)); !out.Interrupted || n == 0 || n == 8 || out.Tally.Games != n {
		t.Fatalf("interrupted run: interrupted %v with %d records, %d counted", out.Interrupted, n, out.Tally.Games)
	}
	resumed, err := fakeTournament(t, cfg).Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := results.ReadFile(cfg.Out)
	seen := map[int]bool{}
	for _, r := range recs {
		if seen[r.Game] {
			t.Fatalf("game %d recorded twice", r.Game)
		}
		seen[r.Game] = true
	}
	if len(recs) != 8 || resumed.Tally.Games != 8 {
		t.Fatalf("after resume: %d records on disk, %d in the outcome; want 8", len(recs), resumed.Tally.Games)
	}
}

func TestTournamentRefusesAnotherRunsRecords(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Out = filepath.Join(t.TempDir(), "games.jsonl")
	if _, err := fakeTournament(t, cfg).Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	cfg.Seed = 6
	_, err := fakeTournament(t, cfg).Play(context.Background())
	var ce *driver.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "another run") {
		t.Fatalf("err = %v, want a arbiter.ConfigError about another run", err)
	}
}

func TestTournamentEngineThatCannotStart(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "unstartable"))
	_, err := fakeTournament(t, cfg).Play(context.Background())
	var se *arbiter.EngineStartError
	if !errors.As(err, &se) || se.Engine != "b" {
		t.Fatalf("err = %v, want an arbiter.EngineStartError for b", err)
	}
}

func TestTournamentRestartsMisbehavingEngines(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "crash@4"))
	cfg.Rounds = 2
	cfg.Concurrency = 1
	starts := 0
	start := arbiter.StartThroughProtocol("")
	tour := fakeTournamentWith(t, cfg, arbiter.TournamentOptions{Start: func(ctx context.Context, e driver.EngineConfig, worker int) (driver.Player, error) {
		if e.Name == "b" {
			starts++
		}
		return start(ctx, e, worker)
	}})
	if _, err := tour.Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, r := range recordsOf(t, tour) {
		if r.Reason != results.ReasonCrash || r.ScoreOf("b") != 0 {
			t.Errorf("game %d: %s %s, want b to lose by crash", r.Game, r.Result, r.Reason)
		}
	}
	if starts != 5 {
		t.Errorf("b was started %d times for 4 games it crashed in, want 5 (the preflight, then one a game)", starts)
	}
}

func TestTournamentSPRTStopsDeterministically(t *testing.T) {
	decisions := map[int]bool{}
	for run := 0; run < 2; run++ {
		// "b" forfeits every game by passing illegally: a known, overwhelming bias.
		cfg := baseConfig(engine("a", "random"), engine("b", "pass@3"))
		cfg.SPRT = &arbiter.SPRTConfig{Elo0: 0, Elo1: 10}
		cfg.Rounds = 100
		cfg.FailureStreak = -1 // b fails every game the same way: the run would stop at 3
		out, err := fakeTournament(t, cfg).Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if out.SPRT == nil || out.SPRT.Decision != arbiter.AcceptH1 {
			t.Fatalf("SPRT = %+v, want H1 accepted", out.SPRT)
		}
		if out.Tally.Games >= 200 {
			t.Fatalf("the SPRT did not stop the run early: %d games", out.Tally.Games)
		}
		decisions[out.SPRT.Pairs] = true
	}
	if len(decisions) != 1 {
		t.Errorf("the SPRT decided after different numbers of pairs: %v", decisions)
	}
}

func TestTournamentGauntletAndRoundRobin(t *testing.T) {
	for _, format := range []arbiter.Format{arbiter.Gauntlet, arbiter.RoundRobin} {
		cfg := baseConfig(engine("a", "random"), engine("b", "random"), engine("c", "random"))
		cfg.Format = format
		tour := fakeTournament(t, cfg)
		out, err := tour.Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want := map[arbiter.Format]int{arbiter.Gauntlet: 4, arbiter.RoundRobin: 6}[format]
		recs := recordsOf(t, tour)
		if len(recs) != want || out.Tally.Games != want {
			t.Errorf("%s: %d games recorded, %d counted, want %d", format, len(recs), out.Tally.Games, want)
		}
		for _, r := range recs {
			if format == arbiter.Gauntlet && r.White.Name != "a" && r.Black.Name != "a" {
				t.Errorf("gauntlet game %d between %s and %s", r.Game, r.White.Name, r.Black.Name)
			}
		}
	}
}

// recordsOf reads a tournament's records file, in schedule order.
func recordsOf(t testing.TB, tour *arbiter.Tournament) []results.Record {
	t.Helper()
	recs, err := results.ReadFile(tour.Config().Out)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(recs, func(a, b results.Record) int { return a.Game - b.Game })
	return recs
}

// TestTournamentEngineWithoutTheExpansions: an engine that does not advertise an expansion of
// the game type stops the run before any game, with an error that names what is missing.
func TestTournamentEngineWithoutTheExpansions(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	start := arbiter.StartThroughProtocol("")
	tour := fakeTournamentWith(t, cfg, arbiter.TournamentOptions{Start: func(ctx context.Context, e driver.EngineConfig, worker int) (driver.Player, error) {
		p, err := start(ctx, e, worker)
		if err != nil || e.Name != "b" {
			return p, err
		}
		return p.(*arbitertest.Player).SetPlays(rules.BaseML), nil
	}})
	_, err := tour.Play(context.Background())
	var se *arbiter.EngineStartError
	var xe *arbiter.ExpansionError
	if !errors.As(err, &se) || se.Engine != "b" || !errors.As(err, &xe) {
		t.Fatalf("err = %v, want an arbiter.EngineStartError with an arbiter.ExpansionError for b", err)
	}
	for _, want := range []string{`engine "b" was refused before game 1`, "does not play Pillbug, which Base+MLP needs (it plays Base+ML)", "give -gametype Base+ML"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %q, want it to say %q", err, want)
		}
	}
	if recs := recordsOf(t, tour); len(recs) != 0 {
		t.Errorf("%d games recorded, want none", len(recs))
	}
}

// TestTournamentShards plays a run as three shards into three files, as three machines would:
// together they hold every scheduled game once, under one run, and each holds whole pairs.
func TestTournamentShards(t *testing.T) {
	dir := t.TempDir()
	var all []results.Record
	runs := map[string]bool{}
	for k := 1; k <= 3; k++ {
		cfg := baseConfig(engine("a", "random"), engine("b", "random"))
		cfg.Rounds = 6
		cfg.Shard = arbiter.Shard{Index: k, Count: 3}
		cfg.Out = filepath.Join(dir, fmt.Sprintf("shard%d.jsonl", k))
		tour := fakeTournament(t, cfg)
		out, err := tour.Play(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		recs := recordsOf(t, tour)
		if out.Scheduled != 4 || len(recs) != 4 {
			t.Fatalf("shard %d: %d games scheduled, %d recorded; want 4 of the 12", k, out.Scheduled, len(recs))
		}
		pairs := map[int]int{}
		for _, r := range recs {
			pairs[r.Pair]++
			if r.Pair%3 != k-1 {
				t.Errorf("shard %d played pair %d", k, r.Pair)
			}
		}
		for p, n := range pairs {
			if n != 2 {
				t.Errorf("shard %d holds %d games of pair %d", k, n, p)
			}
		}
		runs[tour.Run()] = true
		all = append(all, recs...)
	}
	if len(runs) != 1 {
		t.Errorf("the shards have different runs: %v", runs)
	}
	seen := map[int]bool{}
	for _, r := range all {
		if seen[r.Game] {
			t.Errorf("game %d played by two shards", r.Game)
		}
		seen[r.Game] = true
	}
	if len(seen) != 12 {
		t.Errorf("the shards played %d distinct games, want the 12 scheduled", len(seen))
	}
}

func TestParseShard(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want arbiter.Shard
		err  bool
	}{
		{"1/1", arbiter.Shard{1, 1}, false},
		{"2/4", arbiter.Shard{2, 4}, false},
		{" 3 / 3 ", arbiter.Shard{3, 3}, false},
		{"0/4", arbiter.Shard{}, true},
		{"5/4", arbiter.Shard{}, true},
		{"2", arbiter.Shard{}, true},
		{"a/b", arbiter.Shard{}, true},
		{"1/0", arbiter.Shard{}, true},
	} {
		got, err := arbiter.ParseShard(tt.in)
		if (err != nil) != tt.err || (!tt.err && got != tt.want) {
			t.Errorf("arbiter.ParseShard(%q) = %v, %v", tt.in, got, err)
		}
	}
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Shard = arbiter.Shard{1, 2}
	cfg.SPRT = &arbiter.SPRTConfig{Elo0: 0, Elo1: 5}
	if err := cfg.Normalize(); err == nil || !strings.Contains(err.Error(), "one shard cannot decide") {
		t.Errorf("an SPRT in a shard: err = %v", err)
	}
}

// clearLine is what the console writes to clear the live line's row (package console).
const clearLine = "\r\x1b[K"

var liveLine = regexp.MustCompile(`\[\d+/\d+ games, \d+ running\]`)

// TestTournamentProgressLine runs a tournament with the live line on: every console line is
// written on a cleared row, the line counts the games, and nothing of it is left at the end.
func TestTournamentProgressLine(t *testing.T) {
	cfg := baseConfig(engine("a", "random"), engine("b", "random"))
	cfg.Rounds = 3
	var con syncbuf.Buffer
	tour := fakeTournamentWith(t, cfg, arbiter.TournamentOptions{Observers: []arbiter.Observer{console.New(&con, console.Options{Progress: true})}})
	if _, err := tour.Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	out := con.String()
	if !strings.HasSuffix(out, clearLine) {
		t.Errorf("the live line is left on screen at the end: %q", out[max(0, len(out)-120):])
	}
	for _, l := range strings.Split(strings.TrimSuffix(out, clearLine), "\n") {
		if strings.Contains(l, "Finished game") && !strings.Contains(l, clearLine+"Finished game") {
			t.Errorf("a game line written over the live line: %q", l)
		}
	}
	if !strings.Contains(out, "[6/6 games, 0 running] a ") {
		t.Errorf("the live line never showed 6 of 6 games:\n%q", out)
	}
	if all, cleared := liveLine.FindAllStringIndex(out, -1), strings.Count(out, clearLine+"["); len(all) != cleared {
		t.Errorf("%d of %d live lines drawn without clearing the row first", len(all)-cleared, len(all))
	}
	if strings.Count(out, " running]") < 12 {
		t.Errorf("the live line was drawn %d times for 6 games", strings.Count(out, " running]"))
	}
}

// restart=on gives an engine a fresh process for every game, as fastchess does; the other
// engine keeps its one.
func TestTournamentRestartsOnRequest(t *testing.T) {
	a := engine("a", "random")
	a.Restart = true
	cfg := baseConfig(a, engine("b", "random"))
	cfg.Rounds = 2
	cfg.Concurrency = 1
	c := countStarts(nil)
	tour := fakeTournamentWith(t, cfg, arbiter.TournamentOptions{Start: c.start})
	if _, err := tour.Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Each once more for the preflight.
	if c.of("a") != 5 || c.of("b") != 2 {
		t.Errorf("started a %d and b %d times in 4 games; want 5 and 2", c.of("a"), c.of("b"))
	}
}

// TestOutcomeMirrorsAndSetup: the outcome counts the game pairs the run played and the mirrors
// among them (players restarted for each game that draw the same moves from the same seed play
// nothing but mirrors), and gives the setup its records show, as results.SetupOf reads it; a
// resumed run's setup is that of its records too, and it played no pair.
func TestOutcomeMirrorsAndSetup(t *testing.T) {
	a, b := engine("a", "random"), engine("b", "random")
	a.Restart, b.Restart = true, true
	cfg := baseConfig(a, b)
	cfg.Rounds = 3
	sameSeed := arbiter.TournamentOptions{Start: func(context.Context, driver.EngineConfig, int) (driver.Player, error) {
		return arbitertest.New("player", 1), nil
	}}
	tour := fakeTournamentWith(t, cfg, sameSeed)
	out, err := tour.Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if out.PlayedPairs != 3 || out.Mirrors != 3 {
		t.Errorf("%d mirrors of %d pairs played, want 3 of 3", out.Mirrors, out.PlayedPairs)
	}
	want := results.SetupOf(recordsOf(t, tour))
	want.Openings = "" // the configuration's to name
	if !reflect.DeepEqual(out.Setup, want) || len(want.Engines) != 2 {
		t.Errorf("setup %+v, want %+v", out.Setup, want)
	}
	resumed, err := fakeTournamentWith(t, tour.Config(), sameSeed).Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if resumed.PlayedPairs != 0 || resumed.Mirrors != 0 || !reflect.DeepEqual(resumed.Setup, want) {
		t.Errorf("resumed: %d mirrors of %d pairs played, setup %+v; want none, and %+v", resumed.Mirrors, resumed.PlayedPairs, resumed.Setup, want)
	}
}
