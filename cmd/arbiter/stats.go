package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hivearbiter/configs"
	"hivearbiter/elo"
	"hivearbiter/results"
)

const statsUsage = `stats [-sprt elo0=E elo1=E alpha=A beta=B model=M] [-time] [-json FILE] [-skip-bad] [-merge-names] RECORDS.jsonl...

Recomputes every table from game records: the result block for two engines, the field table and
maximum-likelihood ratings for more, and the engines' misbehaviour counts. Several files are
merged (the shards of one run, or a resumed run); a game recorded twice counts once.`

func runStats(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	rest, groups := splitMultiWord(args)
	fs := newFlagSet("stats", statsUsage, stderr)
	jsonOut := fs.String("json", "", "also write a JSON summary to this `file`")
	timeTable := fs.Bool("time", false, "also print each engine's average and longest time per move, overruns within the margin and faults")
	mergeNames := fs.Bool("merge-names", false, "count an engine that plays under several time controls as one player (they are kept apart by default)")
	skipBad := fs.Bool("skip-bad", false, "pass over lines of a records file that are not game records (each file's count is printed)")
	fs.Func("sprt", "SPRT of the first engine: elo0=E elo1=E alpha=A beta=B model=normalized|logistic", func(string) error { return nil })
	if err := parseFlags(fs, rest); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError{errors.New("stats needs at least one records file")}
	}
	if *jsonOut != "" {
		var files []namedFile
		for _, p := range fs.Args() {
			files = append(files, namedFile{flag: "records", path: p})
		}
		files = append(files, namedFile{flag: "-json", path: *jsonOut, write: true})
		if err := checkFiles(files, ""); err != nil {
			return err
		}
	}
	recs, damages, err := results.ReadFilesWith(results.ReadOptions{SkipBad: *skipBad}, fs.Args()...)
	var le *results.LineError
	if errors.As(err, &le) {
		return usageError{fmt.Errorf("%s:%d: %v: the file is damaged; arbiter stats -skip-bad passes over such lines and says how many", le.Path, le.Line, le.Err)}
	}
	if errors.Is(err, os.ErrNotExist) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	for _, d := range damages {
		for _, line := range d.Lines(false) {
			fmt.Fprintln(stdout, "Warning:", line)
		}
	}
	if len(recs) == 0 {
		return fmt.Errorf("no game records in %v", fs.Args())
	}
	warnings := warningCounts(recs) // by the engines' own names
	if !*mergeNames {
		for _, line := range separateTimeControls(recs) {
			fmt.Fprintln(stdout, "Warning:", line)
		}
	}
	tally := results.NewTally(recs, nil)
	fmt.Fprintf(stdout, "%d games from %d file(s)\n", len(recs), fs.NArg())
	if len(tally.Runs) > 1 {
		fmt.Fprintf(stdout, "Warning: the records come from %d different runs (%s), merged into one table: the shards and resumes of one run share its id, other runs may differ in any setting\n",
			len(tally.Runs), strings.Join(tally.Runs, ", "))
	}
	if warnings != "" {
		fmt.Fprintln(stdout, warnings)
	}
	var sprtSummary *results.SPRTSummary
	if len(tally.Players) == 2 {
		first, second := tally.Players[0].Name, tally.Players[1].Name
		var line *results.SPRTLine
		for _, words := range groups["sprt"] {
			test, err := configs.SPRTTest(words)
			if err != nil {
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
			fmt.Fprintf(stdout, "No maximum-likelihood ratings: %s\n", strings.TrimPrefix(err.Error(), "results: "))
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

// writeSummaryFile writes a JSON summary atomically: a reader never sees half a file. The
// temporary file has a name of its own, so two runs writing one summary do not mix theirs.
func writeSummaryFile(path string, s *results.Summary) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	if err := s.Write(f); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil { // CreateTemp makes it private
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}

// separateTimeControls renames the players of engines that play under more than one time
// control to "NAME [TC]", so that they are rated apart, and says so.
func separateTimeControls(recs []results.Record) []string {
	times := map[string]map[string]bool{}
	for _, r := range recs {
		for _, p := range []results.Player{r.White, r.Black} {
			if times[p.Name] == nil {
				times[p.Name] = map[string]bool{}
			}
			times[p.Name][p.Time] = true
		}
	}
	var lines []string
	for _, name := range slices.Sorted(maps.Keys(times)) {
		if tcs := times[name]; len(tcs) > 1 {
			lines = append(lines, fmt.Sprintf("engine %s plays under %d time controls (%s): rated apart as \"%s [TC]\"; -merge-names rates it as one player",
				name, len(tcs), strings.Join(slices.Sorted(maps.Keys(tcs)), ", "), name))
		}
	}
	for i := range recs {
		for _, p := range []*results.Player{&recs[i].White, &recs[i].Black} {
			if len(times[p.Name]) > 1 {
				p.Name = fmt.Sprintf("%s [%s]", p.Name, p.Time)
			}
		}
	}
	return lines
}

// warningCounts counts each engine's warnings (anomalies that decided nothing), "" if none.
func warningCounts(recs []results.Record) string {
	counts := map[string]int{}
	for _, r := range recs {
		for _, w := range r.Warnings {
			for _, name := range []string{r.White.Name, r.Black.Name} {
				if strings.Contains(w, "("+name+")") {
					counts[name]++
				}
			}
		}
	}
	if len(counts) == 0 {
		return ""
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", name, counts[name]))
	}
	return "Warnings in the records (anomalies that decided no game): " + strings.Join(parts, ", ")
}
