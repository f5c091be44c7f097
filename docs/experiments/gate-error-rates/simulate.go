//go:build ignore

// Simulate measures the shipped CI gate's SPRT (configs/ci-gate.toml: its bounds, model,
// error rates, cap and what it does at the cap, read from the file) on random game pairs: at
// each true Elo difference, how often it passes (H1, at a bound or at the cap by the final
// threshold) and fails (H0), how often the cap decided, and how many pairs it plays, beside
// what arbiter sprt-calc -cap computes (elo.SPRT Truncate and ExpectCapped). Each run is
// played as a match plays it: the LLR after every pair, and at the cap the decision of
// elo.SPRT Conclude on the run's own counts. Pairs are drawn from elo.SPRT.PairDistribution of
// two shapes at Elo 0: independent games drawn 10 % of the time (what the banner and
// sprt-calc assume) and a shape of many mirrors (pairs of one point, as deterministic engines
// at a fixed depth play). Run from the repository's root:
//
//	go run docs/experiments/gate-error-rates/simulate.go [-runs 4000] [-seed 1] [-cap N] [-inconclusive] [-uncapped]
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"hivearbiter/configs"
	"hivearbiter/elo"
	_ "hivearbiter/proto/uhp" // the gate's engines speak UHP: its file is read as the arbiter reads it
)

func main() {
	runs := flag.Int("runs", 4000, "simulated gates per Elo and shape")
	seed := flag.Uint64("seed", 1, "random seed")
	capPairs := flag.Int("cap", 0, "the cap in game pairs (0: the file's)")
	inconclusive := flag.Bool("inconclusive", false, "end inconclusive at the cap (at_cap = \"inconclusive\"), as the gate did before issue 48")
	uncapped := flag.Bool("uncapped", false, "play every test to its decision, as Wald's approximation assumes")
	flag.Parse()
	cfg, err := configs.LoadFile("configs/ci-gate.toml", nil)
	if err != nil {
		log.Fatal(err)
	}
	test := cfg.SPRT.Test()
	test.InconclusiveAtCap = test.InconclusiveAtCap || *inconclusive
	maxPairs := cfg.Rounds * cfg.GamesPerPairing / 2 // two engines: one pairing a round
	if *capPairs > 0 {
		maxPairs = *capPairs
	}
	if *uncapped {
		maxPairs = 0
	}
	atCap := "decide by the final threshold"
	if test.InconclusiveAtCap {
		atCap = "inconclusive"
	}
	fmt.Printf("gate: SPRT [%g, %g] %s, alpha %g, beta %g, at most %d pairs (0: no cap), at the cap: %s; %d runs per row, seed %d\n",
		test.Elo0, test.Elo1, test.Model, test.Alpha, test.Beta, maxPairs, atCap, *runs, *seed)
	shapes := []struct {
		name  string
		shape [5]float64
	}{
		{"independent games, 10 % drawn", elo.IndependentPairs(0.1)},
		{"mostly mirrors (70 % of pairs one point)", [5]float64{0.1, 0.05, 0.7, 0.05, 0.1}},
	}
	rng := rand.New(rand.NewPCG(*seed, 41))
	for _, s := range shapes {
		var trunc elo.Truncation
		if maxPairs > 0 {
			if trunc, err = test.Truncate(s.shape, maxPairs); err != nil {
				log.Fatal(err)
			}
			fmt.Printf("\n%s, Ptnml at Elo 0 %.3f: sprt-calc -cap's threshold %.3f, alpha %.2f%%, beta %.2f%%\n",
				s.name, s.shape, trunc.Threshold, 100*trunc.Alpha, 100*trunc.Beta)
		} else {
			fmt.Printf("\n%s, Ptnml at Elo 0 %.3f\n", s.name, s.shape)
		}
		fmt.Printf("%8s | %-24s %-24s %-24s %-24s %10s | %10s %9s\n", "true Elo", "pass (H1) [95% Wilson]", "fail (H0)", "decided at the cap",
			"no decision", "mean pairs", "calc P(H1)", "calc pairs")
		for _, at := range []float64{-100, -75, -50, -37.5, -25, -12.5, 0, 25, 50} {
			pdf := test.PairDistribution(s.shape, at)
			var h1, h0, capped, undecided, pairs int
			for range *runs {
				run := test.Simulate(rng, pdf, maxPairs)
				switch run.Decision {
				case elo.AcceptH1:
					h1++
				case elo.AcceptH0:
					h0++
				default:
					undecided++
				}
				if run.AtCap {
					capped++
				}
				pairs += run.Pairs
			}
			var want elo.Expectation
			if maxPairs > 0 {
				rule := trunc
				if test.InconclusiveAtCap { // the cap passes no one
					rule.Threshold = math.Inf(1)
				}
				e, err := test.ExpectCapped(rule, at)
				if err != nil {
					log.Fatal(err)
				}
				want = e.Expectation
			} else if want, err = test.Expect(s.shape, at); err != nil {
				log.Fatal(err)
			}
			fmt.Printf("%8.1f | %-24s %-24s %-24s %-24s %10.1f | %9.1f%% %9.1f\n", at, rate(h1, *runs), rate(h0, *runs), rate(capped, *runs),
				rate(undecided, *runs), float64(pairs)/float64(*runs), 100*want.PassH1, want.Pairs)
		}
	}
}

// rate is k of n as a percentage with its 95 % Wilson interval.
func rate(k, n int) string {
	lo, hi := wilson(k, n)
	return fmt.Sprintf("%5.1f%% [%4.1f, %5.1f]", 100*float64(k)/float64(n), 100*lo, 100*hi)
}

// wilson is the 95 % Wilson score interval of k successes in n trials.
func wilson(k, n int) (lo, hi float64) {
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	center := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return math.Max(0, center-half), math.Min(1, center+half)
}
