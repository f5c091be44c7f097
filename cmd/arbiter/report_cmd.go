package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"hivearbiter/configs"
	"hivearbiter/internal/cli"
	"hivearbiter/report"
	"hivearbiter/results"
	"hivearbiter/tune"
)

const reportUsage = `report [-o FILE] [-title TEXT] [-sprt elo0=E elo1=E alpha=A beta=B model=M] RECORDS.jsonl...

Writes one self-contained HTML page about game records, that opens offline: the result
tables, charts of the Elo and (with -sprt) the SPRT's LLR as the game pairs were played,
scores by opening, how the games ended, thinking time and clocks, game lengths, and every
game, replayable on a board. Several files are merged as "arbiter stats" merges them.
Given a tune's records (arbiter tune -out), it draws the tune instead: each parameter's path
over the pairs, the step sizes c_k and r_k, and the plus side's running score.`

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("report", reportUsage, stderr)
	out := fs.String("o", "report.html", "write the HTML report to this `file`")
	title := fs.String("title", "", "the page's title (default: the engines' names)")
	fs.Func("sprt", "SPRT of the first engine whose LLR is drawn: elo0=E elo1=E alpha=A beta=B model=normalized|logistic", func(string) error { return nil })
	if err := cli.Parse(fs, rest); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cli.Usage(errors.New("report needs at least one records file"))
	}
	files := append(results.RecordsFiles(fs.Args()), results.NamedFile{Flag: "-o", Path: *out, Write: true})
	if err := checkFiles(files, ""); err != nil { // -o games.jsonl would overwrite the records
		return err
	}
	sprt, err := configs.SPRTFlags(groups["sprt"])
	if err != nil {
		return cli.Usage(err)
	}
	for _, f := range fs.Args() {
		if tune.IsRecords(f) {
			if fs.NArg() > 1 || sprt != nil {
				return cli.Usage(fmt.Errorf("%s holds a tune: report takes a tune's records alone, without -sprt", f))
			}
			d, err := report.WriteTuneRecordsFile(*out, f, *title)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "Wrote %s: %d of %d game pairs of a tune of %s\n", *out, d.Pairs, d.Iterations, d.Engine)
			return nil
		}
	}
	d, err := report.WriteRecordsFile(*out, fs.Args(), report.Options{Title: *title, SPRT: sprt})
	if errors.Is(err, report.ErrSPRTEngines) {
		return cli.Usage(err)
	} else if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Wrote %s: %d games of %s\n", *out, d.Games, strings.Join(d.Engines, ", "))
	return nil
}
