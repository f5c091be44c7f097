package pool

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/elo"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/results"
)

// TestViewCountsEveryPairing: a run's counts are its side's over all its pairings, each from
// the side's point of view: a match's one pairing, a gauntlet's seed against each of the
// others (a batch shown as its first pairing's 0/0/4 was 0/1/7), two seeds against the field
// (not against each other), and a round robin's first engine against the rest.
func TestViewCountsEveryPairing(t *testing.T) {
	t.Parallel()
	eloAB, errAB := 35.0, 20.0
	pairing := func(first, second string, w, d, l int, ptnml [5]int) results.PairingSummary {
		return results.PairingSummary{First: first, Second: second, Games: w + d + l, Wins: w, Draws: d, Losses: l, Pentanomial: ptnml}
	}
	for _, tc := range []struct {
		name     string
		state    RunState
		wdl      [3]int
		ptnml    [5]int
		pairings int
		elo      float64 // a single pairing's
		sign     int     // several pairings': the sign of the side's Elo (0: none, or not checked)
	}{
		{"match", RunState{Format: "match", Engines: []string{"a", "b"}, Summary: &results.Summary{Pairings: []results.PairingSummary{
			{First: "a", Second: "b", Wins: 5, Draws: 2, Losses: 3, Pentanomial: [5]int{0, 1, 2, 1, 1}, Elo: &eloAB, EloError: &errAB}}}},
			[3]int{5, 2, 3}, [5]int{0, 1, 2, 1, 1}, 1, eloAB, 0},
		{"gauntlet of 3", RunState{Format: "gauntlet", Engines: []string{"a", "b", "c"}, Seeds: 1, Summary: &results.Summary{Pairings: []results.PairingSummary{
			pairing("a", "b", 0, 0, 4, [5]int{2, 0, 0, 0, 0}), pairing("a", "c", 0, 1, 3, [5]int{1, 1, 0, 0, 0})}}},
			[3]int{0, 1, 7}, [5]int{3, 1, 0, 0, 0}, 2, 0, 0},
		{"gauntlet, seed second in a pairing", RunState{Format: "gauntlet", Engines: []string{"a", "b", "c"}, Summary: &results.Summary{Pairings: []results.PairingSummary{
			pairing("b", "a", 3, 1, 0, [5]int{0, 0, 0, 1, 1}), pairing("a", "c", 1, 2, 1, [5]int{0, 1, 0, 1, 0})}}},
			[3]int{1, 3, 4}, [5]int{1, 2, 0, 1, 0}, 2, 0, -1},
		{"two seeds", RunState{Format: "gauntlet", Engines: []string{"a", "b", "c", "d"}, Seeds: 2, Summary: &results.Summary{Pairings: []results.PairingSummary{
			pairing("a", "c", 2, 0, 0, [5]int{0, 0, 0, 0, 1}), pairing("b", "c", 0, 2, 0, [5]int{0, 0, 1, 0, 0}),
			pairing("a", "d", 1, 0, 1, [5]int{0, 0, 1, 0, 0}), pairing("b", "d", 0, 0, 2, [5]int{1, 0, 0, 0, 0})}}},
			[3]int{3, 2, 3}, [5]int{1, 0, 2, 0, 1}, 4, 0, 0},
		{"round robin", RunState{Format: "roundrobin", Engines: []string{"a", "b", "c"}, Summary: &results.Summary{Pairings: []results.PairingSummary{
			pairing("a", "b", 1, 0, 1, [5]int{0, 0, 1, 0, 0}), pairing("a", "c", 2, 0, 0, [5]int{0, 0, 0, 0, 1}), pairing("b", "c", 2, 0, 0, [5]int{0, 0, 0, 0, 1})}}},
			[3]int{3, 0, 1}, [5]int{0, 0, 1, 0, 1}, 2, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := View(tc.state)
			if got := [3]int{v.Wins, v.Draws, v.Losses}; got != tc.wdl {
				t.Errorf("W/D/L %v, want %v", got, tc.wdl)
			}
			if v.Pentanomial != tc.ptnml {
				t.Errorf("pentanomial %v, want %v", v.Pentanomial, tc.ptnml)
			}
			if v.Pairings != tc.pairings {
				t.Errorf("%d pairings summed, want %d", v.Pairings, tc.pairings)
			}
			want := tc.elo
			if tc.pairings > 1 {
				// Several pairings: the Elo of the summed pairs, of the side's sign.
				want = math.NaN()
				if est := elo.PentanomialEstimate(elo.Pentanomial(tc.ptnml)); est.EloDefined() {
					want = est.Elo
				}
				if tc.sign != 0 && (math.IsNaN(want) || math.Signbit(want) != (tc.sign < 0)) {
					t.Fatalf("bad case: the summed pairs' Elo %v is not of sign %d", want, tc.sign)
				}
			}
			if !(v.Elo == want || math.IsNaN(v.Elo) && math.IsNaN(want)) {
				t.Errorf("Elo %v, want %v", v.Elo, want)
			}
		})
	}
}

// TestGauntletCountsEveryPairing: a gauntlet of three engines played by the pool shows, in its
// state and in "server runs", its seed's W/D/L over both its pairings: the sums of what
// "arbiter stats" counts in its records.
func TestGauntletCountsEveryPairing(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	ctx := context.Background()
	startWorkers(t, &Worker{Name: "w1", Creds: p.addWorker("w1"), SkipBench: true, Concurrency: 2})
	sub := fakeSubmission(t, 4, 21, func(c *arbiter.Config) {
		argv, env := uhpfake.Command(uhpfake.Config{ID: "instant-c", Play: "random", Seed: 21})
		c.Engines = append(c.Engines, driver.EngineConfig{Name: "c", Command: argv, Env: env, Time: driver.TimeControl{Depth: 1}})
		c.Format = arbiter.Gauntlet
	})
	st, err := p.submitter.Submit(ctx, sub)
	if err != nil {
		t.Fatal(err)
	}
	var final RunState
	waitUntil(t, "the gauntlet to finish", 60*time.Second, func() bool {
		runs, err := p.submitter.Runs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			if r.ID == st.ID && r.State == StateFinished {
				final = r
				return true
			}
		}
		return false
	})
	recs, err := results.ReadFile(st.Records)
	if err != nil {
		t.Fatal(err)
	}
	tally := results.NewTally(recs, nil)
	var want [3]int
	for _, other := range []string{"b", "c"} {
		pt := tally.Pairing("a", other)
		if pt == nil || pt.WDL.Games() == 0 {
			t.Fatalf("no games of a against %s in the records", other)
		}
		want[0] += pt.WDL.Wins
		want[1] += pt.WDL.Draws
		want[2] += pt.WDL.Losses
	}
	v := View(final)
	if got := [3]int{v.Wins, v.Draws, v.Losses}; got != want {
		t.Errorf("the run's W/D/L %v, want %v (a against b and c, by its records)", got, want)
	}
	if got := v.Wins + v.Draws + v.Losses; got != len(recs) {
		t.Errorf("the W/D/L count %d games, the records %d", got, len(recs))
	}
	var out bytes.Buffer
	WriteRuns(&out, []RunState{final})
	if wdl := fmt.Sprintf("%d/%d/%d", want[0], want[1], want[2]); !strings.Contains(out.String(), " "+wdl+" ") {
		t.Errorf("server runs does not show %s:\n%s", wdl, out.String())
	}
}
