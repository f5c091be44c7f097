package render

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"hivearbiter/elo"
	"hivearbiter/results"
)

// StatsOptions say what WriteStats writes besides the tables.
type StatsOptions struct {
	Files int       // the number of files the records come from
	SPRT  *elo.SPRT // a test of the first engine against the second, for two engines
	// SPRTFromRecords marks SPRT as the one the records carry (results.RecordsTest), not one asked
	// for: records of more than two engines are then tabled without it, not refused.
	SPRTFromRecords bool
	// MaxPairs is the run's cap in game pairs (results.Test MaxPairs), at which SPRT decides by its
	// final threshold as the run did; 0 when not known.
	MaxPairs int
	Time     bool // each engine's time per move, overruns within the margin and faults
	// MergeNames rates an engine name as one player, whatever the time controls, game types
	// and programs (by their ids) it stands for.
	MergeNames bool
}

// StatsError is records that cannot give the tables asked for.
type StatsError struct {
	Msg string // the reason, without the package's name
}

// Error returns what went wrong, as a user reads it.
func (e *StatsError) Error() string { return "render: " + e.Msg }

// Message is the error without the package's name.
func (e *StatsError) Message() string { return e.Msg }

// WriteStats writes every table of records, as arbiter stats prints them: the result block of
// two engines (with the SPRT's line), or the field table, ratings and cross table of more, the
// engines' faults, warnings of what the tables merge, and with opts.Time the time table. It returns
// the records' summary. Unless opts.MergeNames, it renames the players of an engine name that
// stands for several players (results.SeparatePlayers).
func WriteStats(w io.Writer, recs []results.Record, opts StatsOptions) (*results.Summary, error) {
	warnings := WarningCounts(recs) // by the engines' own names
	if !opts.MergeNames {
		for _, line := range results.SeparatePlayers(recs) {
			fmt.Fprintln(w, "Warning:", line)
		}
	}
	tally := results.NewTally(recs, nil)
	fmt.Fprintf(w, "%d games from %d file(s)\n", len(recs), opts.Files)
	if len(tally.Runs) > 1 {
		fmt.Fprintf(w, "Warning: the records come from %d different runs (%s), merged into one table: the shards and resumes of one run share its id, other runs may differ in any setting\n",
			len(tally.Runs), strings.Join(tally.Runs, ", "))
	}
	if warnings != "" {
		fmt.Fprintln(w, warnings)
	}
	var sprt *results.SPRTSummary
	switch {
	case len(tally.Players) == 2:
		pairing := tally.Pairing(tally.Players[0].Name, tally.Players[1].Name)
		var line *SPRTLine
		if test := opts.SPRT; test != nil {
			ptnml := pairing.Pairs.Pentanomial()
			llr := test.LLR(ptnml)
			lower, upper := test.Bounds()
			line = &SPRTLine{LLR: llr, Lower: lower, Upper: upper, Elo0: test.Elo0, Elo1: test.Elo1}
			sprt = results.NewSPRTSummary(*test, llr, ptnml.Pairs())
			if c := test.Conclude(ptnml, opts.MaxPairs); c.AtCap {
				threshold := c.Threshold
				sprt.Decision, sprt.DecidedAtCap, sprt.Threshold = c.Decision.String(), true, &threshold
			}
		}
		WriteMatchBlock(w, pairing, MatchInfo{SPRT: line})
	case opts.SPRT != nil && !opts.SPRTFromRecords:
		return nil, &StatsError{fmt.Sprintf("an SPRT compares 2 engines; the records hold %d", len(tally.Players))}
	default:
		if err := WriteFieldRatings(w, tally, false); err != nil {
			return nil, err
		}
		if err := WriteCrossTable(w, tally.CrossTable()); err != nil {
			return nil, err
		}
	}
	if err := WriteFaults(w, tally); err != nil {
		return nil, err
	}
	if opts.Time {
		if err := WriteTimeTable(w, results.NewTimings(recs, tally.Names())); err != nil {
			return nil, err
		}
	}
	return results.NewSummary("records", tally, sprt), nil
}

// WarningCounts says how many warnings (anomalies that decided no game) the records hold of
// each engine, "" if none. A warning of an older record, which does not say its engine, is
// not counted.
func WarningCounts(recs []results.Record) string {
	counts := map[string]int{}
	for _, r := range recs {
		for _, w := range r.Warnings {
			if w.Engine != "" {
				counts[w.Engine]++
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
