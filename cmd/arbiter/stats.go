package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"hivearbiter/ci"
	"hivearbiter/configs"
	"hivearbiter/internal/cli"
	"hivearbiter/results"
	"hivearbiter/results/render"
)

const statsUsage = `stats [-sprt elo0=E elo1=E alpha=A beta=B model=M] [-time] [-json FILE] [-junit FILE] [-summary FILE] [-skip-bad] [-merge-names] RECORDS.jsonl...

Recomputes every table from game records: the result block for two engines, the field table,
maximum-likelihood ratings and cross table for more, and the engines' misbehaviour counts. Several
files are merged (the shards of one run, or a resumed run); a game recorded twice counts once. An
engine name that stands for several time controls, game types or programs (by the id each gave,
and the program recorded) is rated apart unless -merge-names. With -sprt it exits as arbiter
match -sprt does: 0 when H1 is accepted, 3 when H0 is, 4 with no decision yet. Records of a
run played to an SPRT carry its test (bounds, model, alpha, beta, cap): without -sprt, that
test is the one applied, with the same exit codes; -sprt tests them otherwise.`

func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("stats", statsUsage, stderr)
	jsonOut := fs.String("json", "", "also write a JSON summary to this `file`")
	timeTable := fs.Bool("time", false, "also print each engine's average and longest time per move, overruns within the margin and faults")
	mergeNames := fs.Bool("merge-names", false, "count an engine name as one player whatever the time controls, game types and programs (by their ids) it stands for (they are kept apart by default)")
	skipBad := fs.Bool("skip-bad", false, "pass over lines of a records file that are not game records (each file's count is printed)")
	fs.Func("sprt", "SPRT of the first engine: elo0=E elo1=E alpha=A beta=B model=normalized|logistic", func(string) error { return nil })
	var reports ci.Reports
	bindGateReports(fs, &reports, false)
	if err := cli.Parse(fs, rest); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cli.Usage(errors.New("stats needs at least one records file"))
	}
	files := append(results.RecordsFiles(fs.Args()), reports.Files()...)
	if err := checkFiles(append(files, results.NamedFile{Flag: "-json", Path: *jsonOut, Write: true}), ""); err != nil {
		return err
	}
	recs, err := readStatsRecords(stdout, fs.Args(), *skipBad)
	if err != nil {
		return err
	}
	sprt, err := configs.SPRTFlags(groups["sprt"])
	if err != nil {
		return cli.Usage(err)
	}
	fromRecords, maxPairs := false, 0
	if sprt == nil {
		sprt, maxPairs = render.RecordsSPRT(stdout, recs)
		fromRecords = sprt != nil
	}
	summary, err := render.WriteStats(stdout, recs, render.StatsOptions{Files: fs.NArg(), SPRT: sprt, SPRTFromRecords: fromRecords, MaxPairs: maxPairs,
		Time: *timeTable, MergeNames: *mergeNames})
	if errors.As(err, new(*render.StatsError)) {
		return cli.Usage(err)
	}
	if err != nil {
		return err
	}
	if *jsonOut != "" {
		if err := summary.WriteFile(*jsonOut); err != nil {
			return err
		}
	}
	gate := ci.RecordsGate("stats", summary, recs)
	var decided error
	if sprt != nil && summary.SPRT != nil {
		decided = decisionExit(render.WriteSPRTVerdict(stdout, *sprt, summary))
	}
	return gateReport(&reports, stdout, gate, decided)
}

// readStatsRecords reads the records files, warning of the lines passed over.
func readStatsRecords(stdout io.Writer, paths []string, skipBad bool) ([]results.Record, error) {
	recs, damages, err := results.ReadFilesWith(results.ReadOptions{SkipBad: skipBad}, paths...)
	var le *results.LineError
	switch {
	case errors.As(err, &le):
		return nil, cli.Usage(fmt.Errorf("%s:%d: %v: the file is damaged; arbiter stats -skip-bad passes over such lines and says how many", le.Path, le.Line, le.Err))
	case errors.Is(err, os.ErrNotExist):
		return nil, cli.Usage(err)
	case err != nil:
		return nil, err
	}
	for _, d := range damages {
		for _, line := range d.Lines(false) {
			fmt.Fprintln(stdout, "Warning:", line)
		}
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("no game records in %v", paths)
	}
	return recs, nil
}
