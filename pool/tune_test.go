package pool

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/openings"
	"hivearbiter/pool/artifact"
	_ "hivearbiter/proto/gamestring" // a protocol without options, to be refused
	"hivearbiter/results"
	"hivearbiter/rules"
	"hivearbiter/tune"
)

// tuneSubmission is a tune of an instant fake engine with one option, Skill, over iterations
// pairs of short games. The engines play random moves and crash now and then, so that games
// are won and lost and theta moves.
func tuneSubmission(tb testing.TB, iterations int, seed int64) *Submission {
	skill := uhpserver.Option{Name: "Skill", Type: "int", Value: "50", Default: "50", Extra: []string{"0", "100"}}
	argv, env := uhpfake.Command(uhpfake.Config{ID: "tunable", Play: "random", Seed: uint64(seed),
		Options: []uhpserver.Option{skill}, Faults: []uhpfake.Fault{{On: "bestmove", Chance: 0.08, Then: "exit", Code: 1}}})
	cfg := tune.Config{
		Engine: driver.EngineConfig{Name: "tunable", Command: argv, Env: env, Time: driver.TimeControl{Depth: 1}},
		Params: []tune.Param{{Name: "Skill", Int: true, Start: 50, Min: 0, Max: 100, CEnd: 4, REnd: 0.5}},
		Gains:  tune.NewGains(iterations), Seed: seed,
		Openings: openings.Config{RandomPlies: 2}, Adjudication: arbiter.Adjudication{MaxPlies: 20},
	}
	expect, err := distributed.Identify(context.Background(), []driver.EngineConfig{cfg.Engine}, "Base+MLP", 10*time.Second)
	if err != nil {
		tb.Fatal(err)
	}
	return &Submission{Tune: &cfg, Expect: expect, Platforms: []string{artifact.ThisPlatform()}}
}

// submitTune submits a tune of tuneSubmission to the pool.
func submitTune(t *testing.T, p *testPool, iterations int, seed int64) (*Submission, *RunState) {
	t.Helper()
	sub := tuneSubmission(t, iterations, seed)
	st, err := p.submitter.Submit(context.Background(), sub)
	if err != nil {
		t.Fatal(err)
	}
	return sub, st
}

// dialWorker connects to the pool as a new worker that speaks for itself: the test plays it.
func dialWorker(t *testing.T, p *testPool, name string) *nats.Conn {
	t.Helper()
	nc, err := distributed.Dial(p.addWorker(name), "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// checkTuneRecords wants a tune run's records to hold each of its iterations once, in a chain:
// each pair's theta before is the one after the pair before it (in the order they arrived),
// and its theta after is the SPSA update of its result. It returns the records.
func checkTuneRecords(t *testing.T, st *RunState, sub *Submission) []tune.Record {
	t.Helper()
	_, recs, torn, err := tune.ReadRecords(st.Records)
	if err != nil || torn != 0 {
		t.Fatalf("the tune's records: %v (%d bytes torn)", err, torn)
	}
	cfg := sub.Tune
	if len(recs) != cfg.Gains.Iterations {
		t.Errorf("%d pairs recorded, want %d", len(recs), cfg.Gains.Iterations)
	}
	seen := map[int]bool{}
	theta := []float64{cfg.Params[0].Start}
	moved := false
	for i, r := range recs {
		if seen[r.Iteration] {
			t.Errorf("iteration %d recorded twice", r.Iteration)
		}
		seen[r.Iteration] = true
		if !slices.Equal(r.Before, theta) {
			t.Errorf("pair %d (iteration %d): theta before %v, want the last pair's after, %v", i, r.Iteration, r.Before, theta)
		}
		result := 0
		for _, g := range r.Games {
			result += int(2*g.PlusScore) - 1
		}
		if want := tune.Update(cfg.Params, cfg.Gains, r.Perturbation, r.Before, result); r.Result != result || !slices.Equal(r.After, want) {
			t.Errorf("iteration %d: result %d, theta after %v; want %d and %v", r.Iteration, r.Result, r.After, result, want)
		}
		moved = moved || !slices.Equal(r.After, r.Before)
		theta = r.After
	}
	if !moved {
		t.Error("theta never moved: the test shows nothing of the updates")
	}
	return recs
}

// waitFinished waits until the run is finished, and returns its state.
func waitFinished(t *testing.T, p *testPool, id string, timeout time.Duration) RunState {
	t.Helper()
	var st RunState
	waitUntil(t, "run "+id+" to finish", timeout, func() bool {
		runs, err := p.submitter.Runs(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			if r.ID == id {
				st = r
			}
		}
		return st.State == StateFinished
	})
	return st
}

// TestTuneOnPool: a tune submitted to the pool is played by two workers, pair by pair; the
// server applies each result as it arrives and records it as the local tuner does; the runs
// list shows the tune's values.
func TestTuneOnPool(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1")}, &Worker{Name: "w2", Creds: p.addWorker("w2")})
	sub := tuneSubmission(t, 24, 3)
	st, err := p.submitter.Submit(context.Background(), sub)
	if err != nil {
		t.Fatal(err)
	}
	if st.Format != "tune" || st.Scheduled != 48 {
		t.Errorf("submitted as %s of %d games, want a tune of 48", st.Format, st.Scheduled)
	}
	final := waitFinished(t, p, st.ID, 60*time.Second)
	recs := checkTuneRecords(t, st, sub)
	if want := tune.Words(sub.Tune.Params, recs[len(recs)-1].After); final.Values != want {
		t.Errorf("the runs list shows the values %q, want %q", final.Values, want)
	}
	if final.Games() != 48 {
		t.Errorf("the runs list shows %d games, want 48", final.Games())
	}
	page := httptest.NewRecorder()
	p.srv.dashboardHandler().ServeHTTP(page, httptest.NewRequest("GET", "/", nil))
	if !strings.Contains(page.Body.String(), final.Values) {
		t.Errorf("the dashboard does not show the values %q", final.Values)
	}
	report := httptest.NewRecorder()
	p.srv.dashboardHandler().ServeHTTP(report, httptest.NewRequest("GET", "/runs/"+st.ID+"/report.html", nil))
	if report.Code != 200 || !strings.Contains(report.Body.String(), `data-mode="tune"`) {
		t.Errorf("the tune's report: %d, want a page in tune mode:\n%.300s", report.Code, report.Body.String())
	}
	var table strings.Builder
	WriteRuns(&table, []RunState{final})
	if !strings.Contains(table.String(), final.Values) {
		t.Errorf("the runs table does not show the values %q:\n%s", final.Values, table.String())
	}
}

// TestTunePauseResume: a tune paused records nothing until it is resumed, and resumed goes on
// from its records (as after a restart: see cmd/arbiter's TestSubmitTuneAcrossServerKill): each
// iteration is recorded once, the chain of theta unbroken.
func TestTunePauseResume(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1")}, &Worker{Name: "w2", Creds: p.addWorker("w2")})
	sub := tuneSubmission(t, 30, 5)
	ctx := context.Background()
	st, err := p.submitter.Submit(ctx, sub)
	if err != nil {
		t.Fatal(err)
	}
	pairs := func() int {
		_, recs, _, _ := tune.ReadRecords(st.Records)
		return len(recs)
	}
	waitUntil(t, "pairs of the tune", 30*time.Second, func() bool { return pairs() >= 5 })
	if _, err := p.submitter.Control(ctx, Control{ID: st.ID, Action: "pause"}); err != nil {
		t.Fatal(err)
	}
	paused := pairs()
	if paused >= 30 {
		t.Fatalf("the tune finished (%d pairs) before it was paused", paused)
	}
	time.Sleep(500 * time.Millisecond)
	if n := pairs(); n != paused {
		t.Errorf("the paused tune recorded %d pairs", n-paused)
	}
	if _, err := p.submitter.Control(ctx, Control{ID: st.ID, Action: "resume"}); err != nil {
		t.Fatal(err)
	}
	waitFinished(t, p, st.ID, 60*time.Second)
	checkTuneRecords(t, st, sub)
}

// TestTuneRefused: a tune of an engine whose protocol has no options is refused at submit,
// with the reason.
func TestTuneRefused(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	sub := tuneSubmission(t, 4, 1)
	sub.Tune.Engine.Protocol, sub.Tune.Engine.Time = "gamestring", driver.TimeControl{MoveTime: time.Second}
	_, err := p.submitter.Submit(context.Background(), sub)
	if err == nil || !strings.Contains(err.Error(), "its protocol (gamestring) has none") {
		t.Errorf("a tune of a gamestring engine: %v, want it refused for its protocol", err)
	}
	if runs, _ := p.submitter.Runs(context.Background()); len(runs) != 0 {
		t.Errorf("the refused tune is in the pool: %+v", runs)
	}
}

// TestTuneForgedResults: the server counts a tune's result only for a pair it handed out to
// that worker, and only when the referee passes its games as it passes a match's: a claimed
// win the moves do not give, a pair of the wrong engines, an engine that says it is another,
// a game played at another time control or depth, of another game type, seed, move limit,
// iteration or run, and an unknown ticket are each refused, and nothing is recorded; the
// honest pair they were forged from is counted. The active tune's live page is served.
func TestTuneForgedResults(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	sub, st := submitTune(t, p, 4, 2)
	nc := dialWorker(t, p, "mallory")
	ctx := context.Background()
	var pair TunePair
	if err := request(ctx, nc, tuneSubject(verbTake, "mallory"), TuneTake{Run: st.ID}, &pair, takeTimeout); err != nil || pair.Ticket == "" {
		t.Fatalf("taking a pair: %v, %+v", err, pair)
	}
	k := pair.Perturbation.Iteration
	// played are the moves of a game from the pair's opening to the ply limit, and its final
	// GameString: each time the first legal move that does not end the game, a draw at the
	// move limit.
	played := func(limit int) ([]results.Move, string) {
		g, err := rules.ParseGameString(pair.Opening)
		if err != nil {
			t.Fatal(err)
		}
		var moves []results.Move
		for g.Ply() < limit {
			i := slices.IndexFunc(g.ValidMoveStrings(), func(m string) bool {
				after := g.Clone()
				return after.Play(m) == nil && after.State() == rules.InProgress
			})
			if i < 0 {
				t.Fatalf("every move from %q ends the game", g.GameString())
			}
			m := g.ValidMoveStrings()[i]
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
			moves = append(moves, results.Move{Move: m})
		}
		return moves, g.GameString()
	}
	moves, final := played(sub.Tune.Adjudication.MaxPlies)
	// honest is game g of the pair as a worker would record it, a draw at the move limit; each
	// forgery below changes one thing of it.
	honest := func(g int, change func(r *results.Record)) *results.Record {
		white, black := results.Player{Name: "tunable" + tune.PlusSuffix, ID: "tunable", Time: "depth=1"}, results.Player{Name: "tunable" + tune.MinusSuffix, ID: "tunable", Time: "depth=1"}
		if g == 1 {
			white, black = black, white
		}
		r := &results.Record{Schema: results.SchemaVersion, Run: tune.RecordRun, Game: 2*(k-1) + g, Round: 1, Pair: k - 1,
			White: white, Black: black, Opening: pair.Opening, OpeningIndex: pair.OpeningIndex, GameType: "Base+MLP",
			Moves: moves, GameString: final, Result: results.Draw, Reason: results.ReasonMoveLimit, Seed: sub.Tune.Seed}
		if change != nil {
			change(r)
		}
		return r
	}
	forged := func(change func(r *results.Record)) []*results.Record {
		return []*results.Record{honest(0, change), honest(1, nil)}
	}
	earlier, earlierFinal := played(sub.Tune.Adjudication.MaxPlies - 4)
	tests := []struct {
		name   string
		ticket string
		recs   []*results.Record
		want   string
	}{
		{"a win the moves do not give", pair.Ticket, forged(func(r *results.Record) { r.Result, r.Reason = results.WhiteWins, results.ReasonQueenSurrounded }),
			"the final position gives Draw (move-limit)"},
		{"the wrong engines", pair.Ticket, forged(func(r *results.Record) { r.White, r.Black = r.Black, r.White }), `White is "tunable-", the schedule says "tunable+"`},
		{"another engine", pair.Ticket, forged(func(r *results.Record) { r.White.ID = "impostor" }), `White's engine says "impostor", the run's says "tunable"`},
		{"another depth", pair.Ticket, forged(func(r *results.Record) { r.Black.Time = "depth=3" }), `Black played at "depth=3", the run's time control is "depth=1"`},
		{"a time control", pair.Ticket, forged(func(r *results.Record) { r.White.Time = "10+0.1" }), `White played at "10+0.1", the run's time control is "depth=1"`},
		{"another game type", pair.Ticket, forged(func(r *results.Record) { r.GameType = "Base" }), `game type "Base", the run's is "Base+MLP"`},
		{"another seed", pair.Ticket, forged(func(r *results.Record) { r.Seed++ }), "the run's is 2"},
		{"another move limit", pair.Ticket, forged(func(r *results.Record) { r.Moves, r.GameString = earlier, earlierFinal }), "still in progress"},
		{"another iteration", pair.Ticket, forged(func(r *results.Record) { r.Game, r.Pair = r.Game+2, r.Pair+1 }), "differ from those of game"},
		{"another run", pair.Ticket, forged(func(r *results.Record) { r.Run = "r1" }), "it belongs to run r1, not tune"},
		{"one game", pair.Ticket, []*results.Record{honest(0, nil)}, "a pair of 1 games"},
		{"an unknown ticket", "forged", forged(nil), "not a pair this server handed out"},
	}
	for _, tt := range tests {
		var ack TuneAck
		if err := request(ctx, nc, tuneSubject(verbResult, "mallory"), TuneResult{Run: st.ID, Ticket: tt.ticket, Records: tt.recs}, &ack, resultTimeout); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(ack.Error, tt.want) {
			t.Errorf("%s: %q, want a refusal with %q", tt.name, ack.Error, tt.want)
		}
	}
	if _, recs, _, err := tune.ReadRecords(st.Records); err != nil || len(recs) != 0 {
		t.Errorf("after forged results: %d pairs on record (%v), want none", len(recs), err)
	}
	// A refused pair is handed out again at once (the tune has 4 pairs: the first free one is
	// the refused one), not when its ticket lapses.
	var again TunePair
	if err := request(ctx, nc, tuneSubject(verbTake, "mallory"), TuneTake{Run: st.ID}, &again, takeTimeout); err != nil ||
		again.Perturbation.Iteration != pair.Perturbation.Iteration {
		t.Errorf("the next pair after iteration %d was refused: iteration %d (%v), want it again", pair.Perturbation.Iteration, again.Perturbation.Iteration, err)
	}
	// The honest pair, with the ticket of the first hand-out (good until a result of the pair
	// is counted), is counted: each forgery was refused for what it changed alone.
	var ack TuneAck
	if err := request(ctx, nc, tuneSubject(verbResult, "mallory"), TuneResult{Run: st.ID, Ticket: pair.Ticket, Records: forged(nil)}, &ack, resultTimeout); err != nil || ack.Error != "" {
		t.Errorf("the honest pair: %v %q, want it counted", err, ack.Error)
	}
	if _, recs, _, err := tune.ReadRecords(st.Records); err != nil || len(recs) != 1 {
		t.Errorf("after the honest pair: %d pairs on record (%v), want 1", len(recs), err)
	}
	live := httptest.NewRecorder()
	p.srv.dashboardHandler().ServeHTTP(live, httptest.NewRequest("GET", "/runs/"+st.ID+"/live/", nil))
	if live.Code != 200 || !strings.Contains(live.Body.String(), `data-mode="tune-live"`) {
		t.Errorf("the active tune's live page: %d, want a page in tune-live mode:\n%.300s", live.Code, live.Body.String())
	}
}

// TestTuneCompleteAtRestart: a tune whose every pair was on record when its server was killed,
// before the server wrote the run finished, finishes when the server starts again; it stayed
// active for ever, its workers asking for pairs in a loop.
func TestTuneCompleteAtRestart(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1")})
	sub := tuneSubmission(t, 4, 1)
	st, err := p.submitter.Submit(context.Background(), sub)
	if err != nil {
		t.Fatal(err)
	}
	final := waitFinished(t, p, st.ID, 30*time.Second)
	// The bucket as a SIGKILL between the last pair's record and the run's end leaves it.
	final.State, final.Reason, final.Ended = StateActive, "", time.Time{}
	if err := p.srv.put(runKey(st.ID), final); err != nil {
		t.Fatal(err)
	}
	p.stop()
	p.start()
	waitFinished(t, p, st.ID, 10*time.Second)
	checkTuneRecords(t, st, sub)
}

// TestConcurrentResumes: of two resumes of a paused run at once, one resumes it and the other
// is refused; both succeeded, and the run had two servers of its pairs, each of which the
// other's stop would not stop.
func TestConcurrentResumes(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	ctx := context.Background()
	st, err := p.submitter.Submit(ctx, tuneSubmission(t, 50, 1))
	if err != nil {
		t.Fatal(err)
	}
	for round := range 5 {
		if _, err := p.submitter.Control(ctx, Control{ID: st.ID, Action: "pause"}); err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 2)
		for range 2 {
			go func() {
				_, err := p.submitter.Control(ctx, Control{ID: st.ID, Action: "resume"})
				errs <- err
			}()
		}
		resumed := 0
		for range 2 {
			if <-errs == nil {
				resumed++
			}
		}
		if resumed != 1 {
			t.Fatalf("round %d: %d of two resumes at once succeeded, want 1", round, resumed)
		}
	}
}

// TestTunePairRenewed: a pair whose worker says it still plays it is not handed out again when
// its ack wait (3 s here) passes, as a pair longer than that would be, over and over, while
// its worker played on; a pair not renewed is.
func TestTunePairRenewed(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	st, err := p.submitter.Submit(context.Background(), tuneSubmission(t, 10, 1))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	take := func(worker string, nc *nats.Conn) TunePair {
		t.Helper()
		var pair TunePair
		if err := request(ctx, nc, tuneSubject(verbTake, worker), TuneTake{Run: st.ID}, &pair, takeTimeout); err != nil || pair.Ticket == "" {
			t.Fatalf("%s taking a pair: %v, %+v", worker, err, pair)
		}
		return pair
	}
	conns := map[string]*nats.Conn{}
	for _, name := range []string{"renewing", "silent", "other"} {
		nc, err := distributed.Dial(p.addWorker(name), "test")
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		conns[name] = nc
	}
	renewed, silent := take("renewing", conns["renewing"]), take("silent", conns["silent"])
	if renewed.Renew <= 0 || renewed.Renew >= 3*time.Second {
		t.Fatalf("the pair says to renew every %v, want a third of the ack wait", renewed.Renew)
	}
	msg, _ := json.Marshal(TuneRenew{Run: st.ID, Ticket: renewed.Ticket})
	for range 4 {
		time.Sleep(time.Second)
		if err := conns["renewing"].Publish(tuneSubject(verbRenew, "renewing"), msg); err != nil {
			t.Fatal(err)
		}
		conns["renewing"].Flush()
	}
	// 4 s on: the silent worker's pair has lapsed, the renewed one has not.
	got := take("other", conns["other"]).Perturbation.Iteration
	if got != silent.Perturbation.Iteration {
		t.Errorf("after 4 s, another worker was handed iteration %d; want %d, the silent worker's (renewed: %d)",
			got, silent.Perturbation.Iteration, renewed.Perturbation.Iteration)
	}
	if next := take("other", conns["other"]).Perturbation.Iteration; next == renewed.Perturbation.Iteration {
		t.Errorf("the renewed pair, iteration %d, was handed out again", next)
	}
}

// TestStateWithoutSubmission: a run's state left in the bucket without its submission (a late
// write after the run was deleted) is skipped with a word, and the server starts and serves
// the other runs; it refused to start.
func TestStateWithoutSubmission(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	st, err := p.submitter.Submit(context.Background(), tuneSubmission(t, 50, 1))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.srv.put(runKey("ghost"), RunState{ID: "ghost", State: StateActive}); err != nil {
		t.Fatal(err)
	}
	p.stop()
	p.start()
	runs, err := p.submitter.Runs(context.Background())
	if err != nil || len(runs) != 1 || runs[0].ID != st.ID {
		t.Errorf("after a restart the pool has %+v (%v), want the one run %s", runs, err, st.ID)
	}
}

// TestTuneWrongEngineUnfit: a worker whose build of the tune's engine says it is another has
// its first result refused for it, and then keeps away from the run (it says the run is unfit
// for it, and takes no more pairs); it took pair after pair, each refused, for as long as it
// ran.
func TestTuneWrongEngineUnfit(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	_, st := submitTune(t, p, 10, 4)
	var takes atomic.Int64
	watch, err := p.srv.nc.Subscribe(tuneSubject(verbTake, "rebuilt"), func(*nats.Msg) { takes.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Unsubscribe()
	skill := uhpserver.Option{Name: "Skill", Type: "int", Value: "50", Default: "50", Extra: []string{"0", "100"}}
	argv, env := uhpfake.Command(uhpfake.Config{ID: "tunable 2.0", Play: "random", Options: []uhpserver.Option{skill}})
	startWorkers(t, &Worker{Name: "rebuilt", Creds: p.addWorker("rebuilt"), SkipBench: true,
		Engines: []driver.EngineConfig{{Name: "tunable", Command: argv, Env: env}}})
	unfit := func() bool {
		for _, w := range p.srv.Workers() {
			for _, why := range w.Unfit {
				if w.Name == "rebuilt" && strings.HasPrefix(why, st.ID+": ") && strings.Contains(why, `"tunable 2.0"`) {
					return true
				}
			}
		}
		return false
	}
	waitUntil(t, "the worker to tell the server the tune is unfit for its engine", 15*time.Second, unfit)
	p.srv.nc.Flush()
	before := takes.Load()
	time.Sleep(time.Second) // a worker still in the run takes its next pair at once
	if n := takes.Load() - before; n != 0 {
		t.Errorf("the worker took %d more pairs of the tune its engine is not", n)
	}
	if _, recs, _, err := tune.ReadRecords(st.Records); err != nil || len(recs) != 0 {
		t.Errorf("%d pairs on record (%v), want none", len(recs), err)
	}
}
