package pool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/results"
)

// TestTimeScaleFactor: the factor is the reference speed over the worker's speed of the base
// engine (the second), of dev (the first), or the mean of the two factors; a worker with no
// speed of the engine has none, and says why.
func TestTimeScaleFactor(t *testing.T) {
	t.Parallel()
	speeds := map[string]int64{"dev": 100_000, "base": 400_000}
	nps := func(e string) (int64, string) {
		if e == "broken" {
			return 0, "it did not start"
		}
		return speeds[e], ""
	}
	for _, tc := range []struct {
		by      string
		engines []string
		want    float64
		err     string
	}{
		{"", []string{"dev", "base"}, 0.5, ""},
		{ScaleByBase, []string{"dev", "base"}, 0.5, ""},
		{ScaleByDev, []string{"dev", "base"}, 2, ""},
		{ScaleByBoth, []string{"dev", "base"}, 1.25, ""},
		{ScaleByBase, []string{"dev", "broken"}, 0, "no speed of engine broken (it did not start)"},
		{ScaleByDev, []string{"unmeasured", "base"}, 0, "no speed of engine unmeasured (it reports no node counts)"},
	} {
		got, err := TimeScale{NPS: 200_000, By: tc.by}.Factor(tc.engines, nps)
		var se *ScaleError
		switch {
		case tc.err != "" && (!errors.As(err, &se) || se.Reason != tc.err):
			t.Errorf("by %q of %v: %v, want a *ScaleError %q", tc.by, tc.engines, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("by %q of %v: %v, %v; want %v", tc.by, tc.engines, got, err, tc.want)
		}
	}
}

// TestTimeScaleRefusals: a submission whose time scaling cannot be is refused with why: no
// reference speed, an unknown engine to measure, and limits that are not times.
func TestTimeScaleRefusals(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	clock := func(c *arbiter.Config) {
		for i := range c.Engines {
			c.Engines[i].Time = driver.TimeControl{Base: 10 * time.Second, Increment: 100 * time.Millisecond}
		}
	}
	for _, tc := range []struct {
		scale TimeScale
		extra func(*arbiter.Config)
		want  string
	}{
		{TimeScale{NPS: 0}, clock, "a reference speed above 0"},
		{TimeScale{NPS: 1000, By: "fastest"}, clock, `time scaling by "fastest": want base, dev or both`},
		{TimeScale{NPS: 1000}, nil, "no engine of this run has one (a depth or a node count is not scaled)"},
	} {
		sub := fakeSubmission(t, 2, 51, tc.extra)
		sub.Scale = &tc.scale
		if _, err := p.submitter.Submit(context.Background(), sub); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want a refusal saying %q", tc.scale, err, tc.want)
		}
	}
	if runs, _ := p.submitter.Runs(context.Background()); len(runs) != 0 {
		t.Errorf("%d runs in the pool after the refusals", len(runs))
	}
}

// TestTimeScaleTwoWorkers: a run of 10+0.1 scaled against 200000 nps is played by a worker
// whose bench of the base engine runs at 400000 nps at 5+0.05, and by one at 100000 nps at
// 20+0.2: the run's state shows each worker's factor, and each record says the run's limit,
// the limit it was played under and the factor, and its clock started from the scaled limit.
func TestTimeScaleTwoWorkers(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	ctx := context.Background()
	const seed = 52
	engine := func(name string, nps int64) driver.EngineConfig {
		argv, env := uhpfake.Command(uhpfake.Config{ID: "instant-" + name, Play: "random", Seed: seed, Delay: 10 * time.Millisecond,
			Commands: map[string]string{"bench": fmt.Sprintf("nodes=1000000 time=1 nps=%d depth=4", nps)}})
		return driver.EngineConfig{Name: name, Command: argv, Env: env}
	}
	sub := fakeSubmission(t, 30, seed, func(c *arbiter.Config) {
		for i := range c.Engines {
			c.Engines[i] = engine(c.Engines[i].Name, 0)
			c.Engines[i].Time = driver.TimeControl{Base: 10 * time.Second, Increment: 100 * time.Millisecond}
		}
	})
	sub.Scale = &TimeScale{NPS: 200_000}
	st, err := p.submitter.Submit(ctx, sub)
	if err != nil {
		t.Fatal(err)
	}
	if st.Scale == nil || st.Scale.NPS != 200_000 {
		t.Errorf("the run's state does not carry its scaling: %+v", st.Scale)
	}
	startWorkers(t,
		&Worker{Name: "fast", Creds: p.addWorker("fast"), Engines: []driver.EngineConfig{engine("a", 400_000), engine("b", 400_000)}},
		&Worker{Name: "slow", Creds: p.addWorker("slow"), Engines: []driver.EngineConfig{engine("a", 100_000), engine("b", 100_000)}})
	waitUntil(t, "both workers' factors in the run's state", 20*time.Second, func() bool {
		runs, err := p.submitter.Runs(ctx)
		if err != nil || len(runs) != 1 {
			return false
		}
		var table bytes.Buffer
		WriteRuns(&table, runs)
		return strings.Contains(table.String(), "limits scaled by each worker's speed of base against 200000 nps: fast ×0.5, slow ×2")
	})
	waitFinished(t, p, st.ID, 60*time.Second)
	recs, err := results.ReadFile(st.Records)
	if err != nil {
		t.Fatal(err)
	}
	played := map[float64]int{}
	want := map[float64]struct {
		limit     string
		clockUpTo int64 // the first move's clock: at most the scaled base and increment
		clockOver int64 // and more than what a clock of another factor would hold
	}{0.5: {"5+0.05", 5050, 0}, 2: {"20+0.2", 20200, 10100}}
	for _, r := range recs {
		w, ok := want[r.TimeScale]
		if !ok {
			t.Fatalf("game %d: played at a factor of %v, want 0.5 or 2", r.Game, r.TimeScale)
		}
		played[r.TimeScale]++
		for _, pl := range []results.Player{r.White, r.Black} {
			if pl.Time != "10+0.1" || pl.Played != w.limit {
				t.Errorf("game %d, %s: limit %q played as %q; want the run's 10+0.1 played as %s", r.Game, pl.Name, pl.Time, pl.Played, w.limit)
			}
		}
		if len(r.Moves) > 0 && r.Moves[0].ClockMillis != nil {
			if c := *r.Moves[0].ClockMillis; c > w.clockUpTo || c <= w.clockOver {
				t.Errorf("game %d at %v: the first move's clock %d ms, want in (%d, %d]", r.Game, r.TimeScale, c, w.clockOver, w.clockUpTo)
			}
		}
	}
	if played[0.5] == 0 || played[2] == 0 {
		t.Errorf("games by factor: %v, want some at 0.5 (the fast worker) and some at 2 (the slow one)", played)
	}
	// The records stay those of one run, whose players are the run's two engines at its limit.
	if setup := results.SetupOf(recs); setup.Limit != "10+0.1" || len(setup.Engines) != 2 {
		t.Errorf("the records' setup: %+v, want two engines at 10+0.1", setup)
	}
}
