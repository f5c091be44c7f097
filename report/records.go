package report

import (
	"errors"
	"fmt"
	"strings"

	"hivearbiter/results"
	"hivearbiter/tune"
)

// ErrSPRTEngines is WriteRecordsFile's error for an SPRT of records that hold other than two
// engines.
var ErrSPRTEngines = errors.New("an SPRT compares 2 engines")

// WriteRecordsFile writes the report of records files (merged as arbiter stats merges them)
// to out, titled opts.Title or, without one, after the engines. It returns the report's data.
func WriteRecordsFile(out string, paths []string, opts Options) (*Data, error) {
	recs, err := results.ReadFiles(paths...)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("no game records in %v", paths)
	}
	d := Build(recs, opts)
	if opts.Title == "" {
		d.Title = strings.Join(d.Engines, " vs ")
	}
	if opts.SPRT != nil && len(d.Engines) != 2 {
		return nil, fmt.Errorf("%w; the records hold %d", ErrSPRTEngines, len(d.Engines))
	}
	return d, WriteFile(out, d)
}

// WriteTuneRecordsFile writes the page of a tune's records file to out: each parameter's path,
// the step sizes and the running score, titled title or, without one, after the tune. It
// returns the page's data.
func WriteTuneRecordsFile(out, records, title string) (*TuneData, error) {
	h, recs, _, err := tune.ReadRecords(records)
	if err != nil {
		return nil, err
	}
	d := BuildTune(h, recs)
	if title != "" {
		d.Title = title
	}
	return d, WriteTuneFile(out, d)
}
