//go:build experiments

// Command measure is the openings experiment's helper (see docs/openings.md and run.sh next to
// it): it writes the arbiter's old random openings, and sums up the records of the runs. It is
// built only with the tag experiments (go build -tags experiments), so that go build ./... and
// go test ./... leave the experiment alone; CI vets it with the tag, so it still compiles.
//
//	measure olddraw -gametype Base+MLP -plies 4 -pairs 1000 -seed S   # GameStrings, one per pair
//	measure balance FILE.jsonl...                                     # white's score, draw rate
//	measure repeats -pairs 100,1000 FILE...                           # pairs repeating an earlier one
//	measure summary DIR                                               # the table of docs/openings.md
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"hivearbiter/elo"
	"hivearbiter/results"
	"hivearbiter/results/render"
	"hivearbiter/rules"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(1)
	}
}

func run(_ context.Context, args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("want olddraw, balance or summary")
	}
	switch args[0] {
	case "olddraw":
		fs := flag.NewFlagSet("olddraw", flag.ContinueOnError)
		gameType := fs.String("gametype", "Base+MLP", "game type")
		plies := fs.Int("plies", 4, "random plies")
		pairs := fs.Int("pairs", 1000, "openings to write")
		seed := fs.Int64("seed", 0, "the tournament's seed")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		t, err := rules.ParseGameType(*gameType)
		if err != nil {
			return err
		}
		for p := range *pairs {
			fmt.Fprintln(stdout, oldRandomOpening(t, *plies, uint64(*seed), p))
		}
		return nil
	case "balance":
		for _, f := range args[1:] {
			recs, err := results.ReadFile(f)
			if err != nil {
				return err
			}
			s := sum(recs)
			fmt.Fprintf(stdout, "%d games, white's score %.1f%%, draws %.1f%%, %d openings distinct up to symmetry\n",
				s.games, 100*s.whiteScore(), 100*s.drawRate(), s.distinct)
		}
		return nil
	case "repeats":
		fs := flag.NewFlagSet("repeats", flag.ContinueOnError)
		pairs := fs.String("pairs", "100,1000", "the run lengths, in pairs, to count repeats in")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return repeats(strings.Split(*pairs, ","), fs.Args(), stdout)
	case "summary":
		if len(args) != 2 {
			return errors.New("summary DIR")
		}
		return summary(args[1], stdout)
	}
	return fmt.Errorf("unknown command %q", args[0])
}

// oldRandomOpening is the random opening of pair p as the arbiter drew it before it avoided
// positions equal up to symmetry: the first draw of openings/draw.go, which that
// change kept as it was.
func oldRandomOpening(t rules.GameType, plies int, seed uint64, p int) string {
	rng := rand.New(rand.NewPCG(seed, uint64(p)^0x9e3779b97f4a7c15))
	for attempt := 0; ; attempt++ {
		g := rules.NewGame(t)
		for g.Ply() < plies && !g.State().IsOver() {
			moves := g.ValidMoves()
			if err := g.PlayMove(moves[rng.IntN(len(moves))]); err != nil {
				panic(err)
			}
		}
		if !g.State().IsOver() || attempt > 100 {
			for g.State().IsOver() {
				g.Undo(1)
			}
			return g.GameString()
		}
	}
}

// repeats prints, for runs of each length, the share of pairs whose opening (a line of a
// file) an earlier pair of the run had up to symmetry, over all the files.
func repeats(lengths, files []string, stdout io.Writer) error {
	var lines [][]string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		lines = append(lines, strings.Fields(strings.ReplaceAll(string(data), " ", "_")))
	}
	for _, l := range lengths {
		n, err := strconv.Atoi(l)
		if err != nil {
			return err
		}
		repeated, total := 0, 0
		for _, file := range lines {
			seen := map[rules.Canonical]bool{}
			for _, gs := range file[:min(n, len(file))] {
				g, err := rules.ParseGameString(strings.ReplaceAll(gs, "_", " "))
				if err != nil {
					return err
				}
				if seen[g.Canonical()] {
					repeated++
				}
				seen[g.Canonical()] = true
				total++
			}
		}
		fmt.Fprintf(stdout, "first %d pairs: %d of %d repeat an earlier pair of their run up to symmetry (%.1f%%), over %d runs\n",
			n, repeated, total, 100*float64(repeated)/float64(total), len(lines))
	}
	return nil
}

// tally sums the games of a run or of several.
type tally struct {
	games, whiteWins, draws int
	pairs, repeatedPairs    int // pairs, and pairs whose opening an earlier pair of its run had up to symmetry
	distinct                int
	pentanomial             elo.Pentanomial
}

func (t tally) whiteScore() float64 {
	return (float64(t.whiteWins) + float64(t.draws)/2) / float64(t.games)
}
func (t tally) drawRate() float64 { return float64(t.draws) / float64(t.games) }

func (t *tally) add(u tally) {
	t.games += u.games
	t.whiteWins += u.whiteWins
	t.draws += u.draws
	t.pairs += u.pairs
	t.repeatedPairs += u.repeatedPairs
	t.distinct += u.distinct
	t.pentanomial = t.pentanomial.Add(u.pentanomial)
}

// sum tallies one run's records; the pentanomial counts the pairs' points of the engine that
// played White in the pair's first game.
func sum(recs []results.Record) tally {
	var t tally
	byPair := map[int][]results.Record{}
	for _, r := range recs {
		t.games++
		switch r.Result {
		case "WhiteWins":
			t.whiteWins++
		case "Draw":
			t.draws++
		}
		byPair[r.Pair] = append(byPair[r.Pair], r)
	}
	seen := map[rules.Canonical]bool{}
	for _, p := range slices.Sorted(maps.Keys(byPair)) {
		games := byPair[p]
		slices.SortFunc(games, func(a, b results.Record) int { return cmp.Compare(a.Game, b.Game) })
		g, err := rules.ParseGameString(games[0].Opening)
		if err == nil {
			c := g.Canonical()
			if seen[c] {
				t.repeatedPairs++
			}
			seen[c] = true
		}
		t.pairs++
		if len(games) == 2 {
			first := games[0].White.Name
			t.pentanomial[int(2*(points(games[0], first)+points(games[1], first)))]++
		}
	}
	t.distinct = len(seen)
	return t
}

func points(r results.Record, name string) float64 {
	switch {
	case r.Result == "Draw":
		return 0.5
	case (r.Result == "WhiteWins") == (r.White.Name == name):
		return 1
	}
	return 0
}

// runSummary is what a run's -json file says of its SPRT and its first pairing.
type runSummary struct {
	Status   string `json:"status"`
	Games    int    `json:"games"`
	Pairings []struct {
		NElo float64 `json:"nelo"`
	} `json:"pairings"`
	SPRT struct {
		Decision string `json:"decision"`
		Pairs    int    `json:"pairs"`
	} `json:"sprt"`
}

// summary prints, per opening set (the prefix of DIR's METHOD-REP.json files), the runs' SPRT
// decisions, the games they needed, and the tallies of their games.
func summary(dir string, stdout io.Writer) error {
	files, err := filepath.Glob(filepath.Join(dir, "*-*.json"))
	if err != nil {
		return err
	}
	type method struct {
		decisions map[string]int
		games     []float64
		nelo      []float64
		total     tally
	}
	methods := map[string]*method{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		m := name[:strings.LastIndex(name, "-")]
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var s runSummary
		if err := json.Unmarshal(data, &s); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		recs, err := results.ReadFile(strings.TrimSuffix(f, ".json") + ".jsonl")
		if err != nil {
			return err
		}
		if methods[m] == nil {
			methods[m] = &method{decisions: map[string]int{}}
		}
		me := methods[m]
		me.decisions[cmp.Or(s.SPRT.Decision, "none")]++
		games := s.Games
		if s.SPRT.Pairs > 0 {
			games = 2 * s.SPRT.Pairs // the games the test counted, not those stopped with it
		}
		me.games = append(me.games, float64(games))
		if len(s.Pairings) > 0 {
			me.nelo = append(me.nelo, s.Pairings[0].NElo)
		}
		me.total.add(sum(recs))
	}
	table := render.NewTable("openings", "runs", "H1 / H0 / open", "games to decide: mean ± sd (median, min-max)", "repeated pairs",
		"white's score", "draws", "nElo per run: mean ± sd", "nElo pooled")
	for _, name := range slices.Sorted(maps.Keys(methods)) {
		me := methods[name]
		mean, sd := elo.MeanSD(me.games)
		nmean, nsd := elo.MeanSD(me.nelo)
		g := slices.Sorted(slices.Values(me.games))
		est := elo.PentanomialEstimate(me.total.pentanomial)
		table.Append(name, fmt.Sprint(len(me.games)),
			fmt.Sprintf("%d / %d / %d", me.decisions["H1"], me.decisions["H0"], me.decisions["none"]),
			fmt.Sprintf("%.0f ± %.0f (%.0f, %.0f-%.0f)", mean, sd, g[len(g)/2], g[0], g[len(g)-1]),
			fmt.Sprintf("%.1f%%", 100*float64(me.total.repeatedPairs)/float64(me.total.pairs)),
			fmt.Sprintf("%.1f%%", 100*me.total.whiteScore()), fmt.Sprintf("%.1f%%", 100*me.total.drawRate()),
			fmt.Sprintf("%.0f ± %.0f", nmean, nsd), fmt.Sprintf("%.0f ± %.0f", est.NormalizedElo, est.NormalizedErrorMargin))
	}
	return table.WriteMarkdown(stdout)
}
