package tune

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/openings"
	"hivearbiter/results"
)

var skill = Param{Name: "Skill", Int: true, Start: 20, Min: 0, Max: 100, CEnd: 10, REnd: 0.1}

// syntheticConfig is a tune of the synthetic engine's Skill over n pairs, written to out.
func syntheticConfig(t *testing.T, n int, out string, onStart func()) Config {
	t.Helper()
	return Config{
		Engine:       driver.EngineConfig{Name: "fake", Command: []string{"fake"}, Time: driver.TimeControl{Depth: 1}},
		Params:       []Param{skill},
		Gains:        NewGains(n),
		Seed:         3,
		Openings:     openings.Config{RandomPlies: 4},
		Adjudication: arbiter.Adjudication{MaxPlies: 6},
		Concurrency:  1,
		Out:          out,
		Start:        startSynthetic(synthetic{Optimum: 60, Width: 100}, onStart),
	}
}

// The tune finds the synthetic engine's optimum: from Skill 20, within 6 of 60 after 300 pairs,
// for each of five seeds (where each seed ends, and the worst of more seeds, is in
// docs/experiments/measurements.md).
func TestTuneMovesTowardOptimum(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		cfg := syntheticConfig(t, 300, filepath.Join(t.TempDir(), "tune.jsonl"), nil)
		cfg.Seed = seed
		got, err := Run(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("seed %d: Skill start 20, end %.2f, optimum 60 (%d pairs, plus side +%d =%d -%d)", seed, got.Theta[0], got.Pairs, got.Wins, got.Draws, got.Losses)
		if got.Pairs != 300 || got.Theta[0] < 54 || got.Theta[0] > 66 {
			t.Errorf("seed %d: %d pairs, Skill %.2f; want 300 pairs and Skill within 6 of 60", seed, got.Pairs, got.Theta[0])
		}
	}
}

// A tune stopped in the middle of a pair, its records file then torn by a kill in the middle
// of a line, resumes to exactly the values and records of a tune never stopped.
func TestResumeIsExact(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	want, err := Run(t.Context(), syntheticConfig(t, 40, whole, nil))
	if err != nil {
		t.Fatal(err)
	}

	cut := filepath.Join(dir, "cut.jsonl")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var starts atomic.Int64
	stopped, err := Run(ctx, syntheticConfig(t, 40, cut, func() {
		if starts.Add(1) == 37 {
			cancel()
		}
	}))
	if !errors.Is(err, context.Canceled) || stopped.Pairs == 0 || stopped.Pairs >= 40 {
		t.Fatalf("stopped run: %v after %+v; want context.Canceled part way", err, stopped)
	}
	f, err := os.OpenFile(cut, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"iteration":99,"flips":[1],"c":[`)
	f.Close()

	got, err := Run(t.Context(), syntheticConfig(t, 40, cut, nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("stopped after %d pairs at Skill %.4f; resumed to %.4f; uninterrupted %.4f", stopped.Pairs, stopped.Theta[0], got.Theta[0], want.Theta[0])
	if got.Resumed != stopped.Pairs || got.Pairs != 40 || !slices.Equal(got.Theta, want.Theta) {
		t.Errorf("resumed %d of %d pairs to %v; want %d resumed, 40 in all, %v", got.Resumed, got.Pairs, got.Theta, stopped.Pairs, want.Theta)
	}
	_, wantRecs, _, err1 := ReadRecords(whole)
	_, gotRecs, torn, err2 := ReadRecords(cut)
	if err1 != nil || err2 != nil || torn != 0 {
		t.Fatalf("reading records: %v, %v, torn %d", err1, err2, torn)
	}
	for i := range wantRecs {
		if !reflect.DeepEqual(gotRecs[i], wantRecs[i]) {
			t.Fatalf("record %d: resumed %+v, uninterrupted %+v", i, gotRecs[i], wantRecs[i])
		}
	}
}

// At -concurrency 3 every iteration is played once, and the records chain: each pair's theta
// before is the one before it's after, whichever order the pairs finished in.
func TestConcurrentPairsChain(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tune.jsonl")
	cfg := syntheticConfig(t, 60, out, nil)
	cfg.Concurrency = 3
	got, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, recs, _, err := ReadRecords(out)
	if err != nil || len(recs) != 60 || got.Pairs != 60 {
		t.Fatalf("%d records, %d pairs, %v; want 60", len(recs), got.Pairs, err)
	}
	seen := map[int]bool{}
	theta := []float64{skill.Start}
	for i, r := range recs {
		if seen[r.Iteration] || r.Iteration < 1 || r.Iteration > 60 {
			t.Errorf("record %d: iteration %d played twice or out of range", i, r.Iteration)
		}
		seen[r.Iteration] = true
		if !slices.Equal(r.Before, theta) {
			t.Errorf("record %d: before %v, want the previous after %v", i, r.Before, theta)
		}
		if want := Update(cfg.Params, cfg.Gains, r.Perturbation, r.Before, r.Result); !slices.Equal(r.After, want) {
			t.Errorf("record %d: after %v, want %v", i, r.After, want)
		}
		theta = r.After
	}
	if !slices.Equal(theta, got.Theta) {
		t.Errorf("outcome %v, last record %v", got.Theta, theta)
	}
}

func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.jsonl")
	if _, err := Run(t.Context(), syntheticConfig(t, 3, other, nil)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		edit func(c *Config)
		want string
	}{
		{"a protocol without options", func(c *Config) {
			c.Engine.Protocol, c.Engine.Time = "gamestring", driver.TimeControl{MoveTime: 1e9}
		}, `engine "fake" cannot be tuned: a tune sets engine options, and its protocol (gamestring) has none: a one-engine player has no options to set`},
		{"another tune's records", func(c *Config) { c.Out, c.Seed = other, 4 }, "cannot resume: it holds the tune"},
		{"no records file", func(c *Config) { c.Out = "" }, "no records file"},
		{"no time control", func(c *Config) { c.Engine.Time = driver.TimeControl{} }, "has no time control"},
		{"no iterations", func(c *Config) { c.Gains.Iterations = 0 }, "iterations 0"},
	}
	for _, tt := range tests {
		cfg := syntheticConfig(t, 3, filepath.Join(dir, tt.name+".jsonl"), nil)
		tt.edit(&cfg)
		if _, err := Run(t.Context(), cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.want)
		}
	}
	cfg := syntheticConfig(t, 3, filepath.Join(dir, "x.jsonl"), nil)
	cfg.Engine.Protocol, cfg.Engine.Time = "gamestring", driver.TimeControl{MoveTime: 1e9}
	var refused *RefusedError
	if _, err := Run(t.Context(), cfg); !errors.As(err, &refused) {
		t.Errorf("gamestring: %v, want a *RefusedError", err)
	}
}

func TestOutput(t *testing.T) {
	params := []Param{skill, {Name: "Blend Factor", Start: 0.5, Min: 0, Max: 1, CEnd: 0.1, REnd: 0.1}}
	theta := []float64{59.6, 0.123456789}
	if got, want := Words(params, theta), "option.Skill=60 option.Blend Factor=0.123457"; got != want {
		t.Errorf("Words = %q, want %q", got, want)
	}
	if got, want := TOML(params, theta), `options = { Skill = "60", "Blend Factor" = "0.123457" }`; got != want {
		t.Errorf("TOML = %q, want %q", got, want)
	}
}

// A records file of the same parameters played at another limit is not resumed.
func TestRefusesOtherGames(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tune.jsonl")
	if _, err := Run(t.Context(), syntheticConfig(t, 2, out, nil)); err != nil {
		t.Fatal(err)
	}
	cfg := syntheticConfig(t, 2, out, nil)
	cfg.Engine.Time = driver.TimeControl{Depth: 2}
	var re *RecordsError
	if _, err := Run(t.Context(), cfg); !errors.As(err, &re) || !strings.Contains(err.Error(), "depth=2") {
		t.Errorf("resuming at depth=2 a tune played at depth=1: %v, want a *RecordsError naming both", err)
	}
}

func TestWriteOutcome(t *testing.T) {
	params := []Param{skill, {Name: "Blend", Start: 0.5, Min: 0, Max: 1, CEnd: 0.1, REnd: 0.1}}
	cfg := Config{Engine: driver.EngineConfig{Name: "dev"}, Params: params, Gains: NewGains(100), Out: "tune-dev-0.jsonl"}
	var b strings.Builder
	WriteOutcome(&b, &Outcome{Params: params, Theta: []float64{58.4, 0.61}, Pairs: 100, Wins: 12, Draws: 170, Losses: 18}, cfg)
	b.WriteString("--- stopped early:\n")
	WriteOutcome(&b, &Outcome{Params: params, Theta: []float64{31, 0.5}, Pairs: 40, Resumed: 10, Wins: 5, Draws: 70, Losses: 5}, cfg)
	golden.Check(t, "testdata/outcome.golden", []byte(b.String()))
}

// ReadRecords never panics, and what it accepts has a header and pairs of its parameters.
func FuzzReadRecords(f *testing.F) {
	f.Add([]byte(`{"tune":{"engine":"e","params":[{"name":"X","start":1,"min":0,"max":2,"c_end":1,"r_end":1}]}}` + "\n" +
		`{"iteration":1,"flips":[1],"c":[1],"result":2,"before":[1],"after":[2]}` + "\n"))
	f.Add([]byte(`{"tune":{}}` + "\n" + `{"iteration":1`))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "r.jsonl")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		h, recs, _, err := ReadRecords(file)
		if err != nil {
			return
		}
		if len(recs) > 0 && h == nil {
			t.Fatalf("pairs without a header in %q", data)
		}
		for _, r := range recs {
			if len(r.After) != len(h.Params) {
				t.Fatalf("pair of %d values under a header of %d parameters", len(r.After), len(h.Params))
			}
		}
	})
}

// A player that can change its options between games is started once and given each pair's
// values: every game is played with the values its pair's record says were sent.
func TestValuesSetBetweenGames(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tune.jsonl")
	cfg := syntheticConfig(t, 20, out, nil)
	var starts atomic.Int64
	var games []string
	var mu sync.Mutex
	inner := startSynthetic(synthetic{Optimum: 60, Width: 1e9}, nil) // nobody throws: no restarts after a fault
	cfg.Start = func(ctx context.Context, e driver.EngineConfig, worker int) (driver.Player, error) {
		starts.Add(1)
		p, err := inner(ctx, e, worker)
		if err != nil {
			return nil, err
		}
		return &settablePlayer{fakePlayer: p.(*fakePlayer), name: e.Name, games: &games, mu: &mu}, nil
	}
	if _, err := Run(t.Context(), cfg); err != nil {
		t.Fatal(err)
	}
	if n := starts.Load(); n != 2 {
		t.Errorf("%d players started, want 2 (one per side, kept for all pairs)", n)
	}
	_, recs, _, err := ReadRecords(out)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range recs {
		plus := "fake+=" + r.PlusSent[0]
		minus := "fake-=" + r.MinusSent[0]
		want = append(want, plus, minus, minus, plus) // each game starts White, then Black
	}
	if !slices.Equal(games, want) {
		t.Errorf("values at each game's start:\n%v\nwant\n%v", games, want)
	}
}

// observed records what a tune tells its observer.
type observed struct {
	header   *Header
	resumed  []Record
	finished []Record
}

func (o *observed) TuneStarted(h *Header, resumed []Record) { o.header, o.resumed = h, resumed }
func (o *observed) PairFinished(r *Record)                  { o.finished = append(o.finished, *r) }

// The observer is told the header and every pair as it is applied, in the records' order, and
// a resumed tune's observer is told the pairs already on record first.
func TestObserver(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tune.jsonl")
	cfg := syntheticConfig(t, 8, out, nil)
	cfg.Concurrency = 2
	var first observed
	cfg.Observer = &first
	if _, err := Run(t.Context(), cfg); err != nil {
		t.Fatal(err)
	}
	h, recs, _, err := ReadRecords(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first.header, h) || len(first.resumed) != 0 || !reflect.DeepEqual(first.finished, recs) {
		t.Errorf("observer saw header %+v, %d resumed, %d finished; want %+v, 0, the %d records in order", first.header, len(first.resumed), len(first.finished), h, len(recs))
	}
	var again observed
	cfg.Observer = &again
	if _, err := Run(t.Context(), cfg); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.header, h) || !reflect.DeepEqual(again.resumed, recs) || len(again.finished) != 0 {
		t.Errorf("resumed: observer saw %d resumed and %d finished; want the %d records resumed", len(again.resumed), len(again.finished), len(recs))
	}
}

// The records file is a results.Log: a second tune on a file one is writing is refused before
// it reads or writes anything, and a file whose only line, the header, a kill cut short is a
// new tune's.
func TestRecordsFileIsLocked(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tune.jsonl")
	first, err := Open(syntheticConfig(t, 2, out, nil))
	if err != nil {
		t.Fatal(err)
	}
	var locked *results.LockedError
	var re *RecordsError
	if _, err := Run(t.Context(), syntheticConfig(t, 2, out, nil)); !errors.As(err, &locked) || !errors.As(err, &re) {
		t.Errorf("a second tune on the file: %v, want a *RecordsError of a *results.LockedError", err)
	}
	first.Close()

	header, _ := os.ReadFile(out)
	if err := os.WriteFile(out, header[:len(header)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Run(t.Context(), syntheticConfig(t, 2, out, nil)); err != nil || got.Resumed != 0 || got.Pairs != 2 {
		t.Fatalf("a tune whose header was cut short: %+v, %v; want it played anew", got, err)
	}
	if h, recs, torn, err := ReadRecords(out); err != nil || h == nil || len(recs) != 2 || torn != 0 {
		t.Errorf("its records: header %v, %d pairs, torn %d, %v", h, len(recs), torn, err)
	}
}
