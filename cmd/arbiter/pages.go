package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/report"
	"hivearbiter/results"
)

// pagesUsage is appended to match's -h text.
const pagesUsage = `
Pages of the run (package report):
  -report FILE        keep an HTML report of the games so far in FILE, rewritten as games finish
  -http ADDR          serve a live page of the run at ADDR, e.g. 127.0.0.1:8080 (read-only)
  -http-public        allow -http on an address other than loopback`

// pageFlags are the flags of match that show a run as pages.
type pageFlags struct {
	report string
	http   string
	public bool
}

// splitPageFlags takes -report, -http and -http-public out of match's arguments.
func splitPageFlags(args []string) ([]string, pageFlags, error) {
	var p pageFlags
	var rest []string
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") {
			rest = append(rest, args[i])
			continue
		}
		var dest *string
		switch name {
		case "report":
			dest = &p.report
		case "http":
			dest = &p.http
		case "http-public":
			p.public = !hasValue || value == "true"
			continue
		default:
			rest = append(rest, args[i])
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return nil, p, usageError{fmt.Errorf("flag needs an argument: -%s", name)}
			}
			i++
			value = args[i]
		}
		*dest = value
	}
	return rest, p, nil
}

// start opens the pages of a run and returns the function that closes them at its end.
//
// Until the tournament has an observer seam, the pages follow the records file: every game in
// it, resumed ones included, is handed to them as it is appended. The live page then shows the
// progress, standings and finished games, but not yet the games in progress; connecting the
// tournament's observer to pages.observer gives it those too.
func (p pageFlags) start(ctx context.Context, cfg arbiter.Config, stdout io.Writer) (stop func() error, err error) {
	if p.report == "" && p.http == "" {
		return func() error { return nil }, nil
	}
	opts := report.Options{Title: strings.Join(engineNames(cfg), " vs "), Engines: engineNames(cfg)}
	if cfg.SPRT != nil {
		test := cfg.SPRT.Test()
		opts.SPRT = &test
	}
	var observers report.Observers
	var file *report.File
	if p.report != "" {
		file = report.NewFile(p.report, opts)
		observers = append(observers, file)
	}
	ctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	if p.http == "" {
		served <- nil
	} else {
		ln, err := report.Listen(p.http, p.public)
		if err != nil {
			cancel()
			if errors.Is(err, report.ErrPublicAddress) {
				return nil, usageError{fmt.Errorf("%w (give -http-public to serve on %s)", err, p.http)}
			}
			return nil, err
		}
		live := report.NewLive(opts)
		observers = append(observers, live)
		go func() { served <- live.Serve(ctx, ln) }()
		fmt.Fprintf(stdout, "Live page at http://%s/\n", ln.Addr())
	}
	followed := make(chan error, 1)
	go func() { followed <- followRecords(ctx, cfg.Out, observers) }()
	return func() error {
		cancel()
		err := errors.Join(<-followed, <-served)
		if file != nil {
			err = errors.Join(err, file.Flush())
		}
		return err
	}, nil
}

func engineNames(cfg arbiter.Config) []string {
	var names []string
	for _, e := range cfg.Engines {
		names = append(names, e.Name)
	}
	return names
}

// pollRecords is how often followRecords looks for new records.
const pollRecords = 250 * time.Millisecond

// followRecords hands every complete record appended to the records file to the observer,
// until ctx is done and a last look found the records written until then.
func followRecords(ctx context.Context, path string, o report.Observer) error {
	var offset int64
	tick := time.NewTicker(pollRecords)
	defer tick.Stop()
	for {
		done := ctx.Err() != nil
		n, err := readNewRecords(path, offset, o)
		if err != nil || done {
			return err
		}
		offset += n
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
}

// readNewRecords reads the complete lines after offset and returns how many bytes they took.
func readNewRecords(path string, offset int64, o report.Observer) (int64, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return 0, err
	}
	r := bufio.NewReader(f)
	var read int64
	for {
		line, err := r.ReadBytes('\n')
		if err != nil { // the end, or a line still being written
			return read, nil
		}
		read += int64(len(line))
		var rec results.Record
		if json.Unmarshal(line, &rec) == nil {
			o.GameFinished(&rec)
		}
	}
}
