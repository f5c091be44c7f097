package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"hivearbiter/elo"
	"hivearbiter/results"
)

const statsUsage = `stats [-sprt elo0=E elo1=E alpha=A beta=B model=M] [-time] [-json FILE] RECORDS.jsonl...

Recomputes every table from game records: the result block for two engines, the field table and
maximum-likelihood ratings for more, and the engines' misbehaviour counts. Several files are
merged (the shards of one run, or a resumed run); a game recorded twice counts once.`

func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("stats", statsUsage, stderr)
	jsonOut := fs.String("json", "", "also write a JSON summary to this `file`")
	timeTable := fs.Bool("time", false, "also print each engine's average and longest time per move, overruns within the margin and faults")
	fs.Func("sprt", "SPRT of the first engine: elo0=E elo1=E alpha=A beta=B model=normalized|logistic", func(string) error { return nil })
	if err := parseFlags(fs, rest); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError{errors.New("stats needs at least one records file")}
	}
	recs, err := results.ReadFiles(fs.Args()...)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("no game records in %v", fs.Args())
	}
	tally := results.NewTally(recs, nil)
	fmt.Fprintf(stdout, "%d games from %d file(s)\n", len(recs), fs.NArg())
	var sprtSummary *results.SPRTSummary
	if len(tally.Players) == 2 {
		first, second := tally.Players[0].Name, tally.Players[1].Name
		var line *results.SPRTLine
		for _, words := range groups["sprt"] {
			cfg, err := parseSPRT(words)
			if err != nil {
				return usageError{err}
			}
			if cfg.Alpha == 0 {
				cfg.Alpha = 0.05
			}
			if cfg.Beta == 0 {
				cfg.Beta = 0.05
			}
			test := cfg.Test()
			if err := test.Validate(); err != nil {
				return usageError{err}
			}
			ptnml := tally.Pairing(first, second).Pairs.Pentanomial()
			llr := test.LLR(ptnml)
			lower, upper := test.Bounds()
			line = &results.SPRTLine{LLR: llr, Lower: lower, Upper: upper, Elo0: test.Elo0, Elo1: test.Elo1}
			sprtSummary = sprtSummaryOf(test, llr, ptnml.Pairs())
		}
		results.WriteMatchBlock(stdout, tally.Pairing(first, second), results.MatchInfo{SPRT: line})
	} else {
		if len(groups["sprt"]) > 0 {
			return usageError{fmt.Errorf("an SPRT compares 2 engines; the records hold %d", len(tally.Players))}
		}
		if err := results.WriteFieldTable(stdout, tally); err != nil {
			return err
		}
		if r, err := results.FitRatings(tally); err == nil {
			if err := results.WriteRatingTable(stdout, tally, r); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(stdout, "No maximum-likelihood ratings: %v\n", err)
		}
	}
	if err := results.WriteFaults(stdout, tally); err != nil {
		return err
	}
	if *timeTable {
		order := make([]string, len(tally.Players))
		for i, p := range tally.Players {
			order[i] = p.Name
		}
		if err := results.WriteTimeTable(stdout, results.NewTimings(recs, order)); err != nil {
			return err
		}
	}
	if *jsonOut != "" {
		return writeSummaryFile(*jsonOut, results.NewSummary("records", tally, sprtSummary))
	}
	return nil
}

func sprtSummaryOf(test elo.SPRT, llr float64, pairs int) *results.SPRTSummary {
	lower, upper := test.Bounds()
	return &results.SPRTSummary{Elo0: test.Elo0, Elo1: test.Elo1, Alpha: test.Alpha, Beta: test.Beta, Model: test.Model.String(),
		LLR: llr, Lower: lower, Upper: upper, Decision: test.Status(llr).String(), Pairs: pairs}
}

// writeSummaryFile writes a JSON summary atomically: a reader never sees half a file.
func writeSummaryFile(path string, s *results.Summary) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := s.Write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
