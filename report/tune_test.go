package report

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/testkit/golden"
	"hivearbiter/tune"
)

// syntheticTune is a tune's header and n pairs, made by the tuner's own perturbation and
// update rule from random pair results: an integer parameter and a float one.
func syntheticTune(n int, seed uint64) (*tune.Header, []tune.Record) {
	params := []tune.Param{
		{Name: "Weight", Int: true, Start: 20, Min: 0, Max: 100, CEnd: 5, REnd: 0.02},
		{Name: "Margin", Start: 1.5, Min: 0.5, Max: 3, CEnd: 0.2, REnd: 0.002},
	}
	s := tune.NewGains(n)
	h := &tune.Header{Engine: "bot", Params: params, Seed: 5, Iterations: n, A: s.A, Alpha: s.Alpha, Gamma: s.Gamma, Games: "depth=3 Base+MLP"}
	rng := rand.New(rand.NewPCG(seed, 1))
	theta := []float64{params[0].Start, params[1].Start}
	var recs []tune.Record
	for k := 1; k <= n; k++ {
		pt := tune.Perturb(params, s, h.Seed, k, theta)
		var games []tune.Game
		result := 0
		for g := range 2 {
			score := []float64{0, 0.5, 1, 1}[rng.IntN(4)] // the plus side a little better
			games = append(games, tune.Game{PlusWhite: g == 0, Result: "Draw", Reason: "max-plies", Plies: 40, PlusScore: score})
			result += int(2*score) - 1
		}
		after := tune.Update(params, s, pt, theta, result)
		recs = append(recs, tune.Record{Perturbation: pt, Opening: "Base+MLP", Games: games, Result: result, Before: theta, After: after})
		theta = after
	}
	return h, recs
}

// TestTuneDataGolden is the page data of a short tune.
func TestTuneDataGolden(t *testing.T) {
	h, recs := syntheticTune(6, 1)
	d := BuildTune(h, recs)
	b, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "tune.json"), append(b, '\n'))
}

// TestTuneData checks the curves against the records they come from: one point per pair and
// the start, the path as a share of the range, c_k as the records have it, r_k as a_k/c_k²
// of the schedule, and the scores; and that a long tune is thinned, its last pair kept.
func TestTuneData(t *testing.T) {
	for _, n := range []int{1, 7, 2500} {
		h, recs := syntheticTune(n, uint64(n))
		d := BuildTune(h, recs)
		if d.Pairs != n || d.X[0] != 0 || d.X[len(d.X)-1] != n || len(d.X) > maxTunePoints+2 {
			t.Errorf("%d pairs: %d points from %d to %d", n, len(d.X), d.X[0], d.X[len(d.X)-1])
		}
		s := tune.Gains{Iterations: h.Iterations, A: h.A, Alpha: h.Alpha, Gamma: h.Gamma}
		sum := 0.0
		for _, r := range recs {
			for _, g := range r.Games {
				sum += g.PlusScore
			}
		}
		if got, want := float64(d.Score[len(d.Score)-1]), 100*sum/float64(2*n); math.Abs(got-want) > 0.005 {
			t.Errorf("%d pairs: score %v, want %v", n, got, want)
		}
		for i, p := range h.Params {
			tp := d.Params[i]
			span := p.Max - p.Min
			for j, x := range d.X {
				theta := p.Start
				if x > 0 {
					theta = recs[x-1].After[i]
				}
				if got, want := float64(tp.Path[j]), 100*(theta-p.Min)/span; math.Abs(got-want) > 0.005 {
					t.Fatalf("%d pairs, %s at pair %d: path %v, want %v", n, p.Name, x, got, want)
				}
				if x == 0 {
					if !math.IsNaN(float64(tp.C[j])) || !math.IsNaN(float64(tp.R[j])) {
						t.Errorf("%s: c and r at the start are %v, %v, want none", p.Name, tp.C[j], tp.R[j])
					}
					continue
				}
				r := recs[x-1]
				if got, want := float64(tp.C[j]), 100*r.C[i]/span; math.Abs(got-want) > 0.005 {
					t.Fatalf("%s at pair %d: c %v, want %v", p.Name, x, got, want)
				}
				want := s.Gain(p, r.Iteration) / (r.C[i] * r.C[i])
				if got := float64(tp.R[j]); math.Abs(got-want) > 1e-3*want {
					t.Fatalf("%s at pair %d: r %v, want %v", p.Name, x, got, want)
				}
			}
			if float64(tp.Value) != recs[n-1].After[i] {
				t.Errorf("%s: value %v, want %v", p.Name, tp.Value, recs[n-1].After[i])
			}
		}
		if !strings.Contains(d.Tables, tune.Words(h.Params, recs[n-1].After)) {
			t.Errorf("%d pairs: the tables do not give the values as option words:\n%s", n, d.Tables)
		}
	}
}

// TestTuneLiveAsReport: a live page told of a resumed tune and its later pairs shows what a
// report of all the records shows.
func TestTuneLiveAsReport(t *testing.T) {
	h, recs := syntheticTune(9, 4)
	live := NewTuneLive()
	if live.Data() != nil {
		t.Error("a live page has data before its tune starts")
	}
	live.TuneStarted(h, recs[:4])
	for i := range recs[4:] {
		live.PairFinished(&recs[4+i])
	}
	got, _ := json.Marshal(live.Data())
	want, _ := json.Marshal(BuildTune(h, recs))
	if string(got) != string(want) {
		t.Errorf("live page:\n%s\nreport:\n%s", got, want)
	}
}

// TestServeTune: a tune's live page is served at the address given, which the console is
// told, until it is stopped; an address other machines reach is refused unless public.
func TestServeTune(t *testing.T) {
	var console strings.Builder
	live, stop, err := ServeTune(context.Background(), "127.0.0.1:0", false, &console)
	if err != nil {
		t.Fatal(err)
	}
	addr, ok := strings.CutPrefix(strings.TrimSpace(console.String()), "Live page at ")
	if !ok || live == nil {
		t.Fatalf("console %q", console.String())
	}
	resp, err := http.Get(addr)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %s", addr, resp.Status)
	}
	stop()
	if _, err := http.Get(addr); err == nil {
		t.Errorf("the page is still served after stop")
	}
	if _, _, err := ServeTune(context.Background(), "0.0.0.0:0", false, io.Discard); !errors.Is(err, ErrPublicAddress) {
		t.Errorf("a public address: %v, want ErrPublicAddress", err)
	}
}
