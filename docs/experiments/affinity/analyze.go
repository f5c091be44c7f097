//go:build ignore

// Analyze prints the table of the affinity measurement from the records of its runs, given
// as NAME=FILE arguments: per run, the games, the time losses, the spread of the time used per
// move and of the nodes per second per move (from the engines' info lines: hivebot over UGI
// reports them). Run by ./measure; go run analyze.go off=off.jsonl on=on.jsonl by hand.
package main

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"hivearbiter/elo"
	"hivearbiter/results"
)

func main() {
	fmt.Printf("%-12s %6s %6s %6s | %-33s | %-33s\n", "run", "games", "moves", "t.loss",
		"ms per move: mean sd p99 max", "kN/s per move: p10 p50 p90 cv")
	for _, arg := range os.Args[1:] {
		name, path, ok := strings.Cut(arg, "=")
		if !ok {
			fmt.Fprintln(os.Stderr, "usage: go run analyze.go NAME=FILE...")
			os.Exit(2)
		}
		recs, err := results.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var ms, nps []float64
		losses := 0
		for _, r := range recs {
			if r.Reason == results.ReasonTimeForfeit {
				losses++
			}
			for _, m := range r.Moves {
				ms = append(ms, float64(m.Millis))
				if m.Info != nil && m.Info.Nodes > 0 {
					t := m.Info.Millis
					if t <= 0 {
						t = m.Millis
					}
					if t >= 5 { // a move of a few ms says nothing of the speed
						nps = append(nps, float64(m.Info.Nodes)/float64(t))
					}
				}
			}
		}
		mean, sd := elo.MeanSD(ms)
		nmean, nsd := elo.MeanSD(nps)
		fmt.Printf("%-12s %6d %6d %6d | %7.1f %7.1f %7.0f %7.0f   | %7.1f %7.1f %7.1f %6.3f\n", name, len(recs), len(ms), losses,
			mean, sd, quantile(ms, 0.99), quantile(ms, 1), quantile(nps, 0.1), quantile(nps, 0.5), quantile(nps, 0.9), nsd/nmean)
	}
}

func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	return s[int(math.Round(q*float64(len(s)-1)))]
}
