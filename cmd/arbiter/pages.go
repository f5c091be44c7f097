package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/report"
	"hivearbiter/results"
)

// pageFlags are the flags of match that show a run as pages (package report).
type pageFlags struct {
	report string
	http   string
	public bool
}

func (p *pageFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.report, "report", "", "keep an HTML report of the games so far in this `file`, rewritten as games finish")
	fs.StringVar(&p.http, "http", "", "serve a live page of the run at this `address`, e.g. 127.0.0.1:8080 (read-only; loopback only unless -http-public)")
	fs.BoolVar(&p.public, "http-public", false, "allow -http on an address other than loopback")
}

// start opens the pages of a run. It returns the observer that feeds them the tournament's
// games as they are played, and the function that closes the pages at the run's end. Games of
// a resumed run that are already in the records file are given to the pages first.
func (p pageFlags) start(ctx context.Context, cfg arbiter.Config, stdout io.Writer) (arbiter.Observer, func() error, error) {
	if p.report == "" && p.http == "" {
		return nil, func() error { return nil }, nil
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
				return nil, nil, usageError{fmt.Errorf("%w (give -http-public to serve on %s)", err, p.http)}
			}
			return nil, nil, err
		}
		live := report.NewLive(opts)
		observers = append(observers, live)
		go func() { served <- live.Serve(ctx, ln) }()
		fmt.Fprintf(stdout, "Live page at http://%s/\n", ln.Addr())
	}
	if err := readRecords(cfg.Out, observers); err != nil {
		cancel()
		return nil, nil, err
	}
	stop := func() error {
		cancel()
		err := <-served
		if file != nil {
			err = errors.Join(err, file.Flush())
		}
		return err
	}
	return pageObserver{to: observers, cfg: cfg}, stop, nil
}

// pageObserver gives the tournament's events to the pages.
type pageObserver struct {
	to  report.Observer
	cfg arbiter.Config
}

func (o pageObserver) GameStarted(g arbiter.ScheduledGame, white, black string) {
	we, be := o.cfg.Engines[g.White], o.cfg.Engines[g.Black]
	o.to.GameStarted(g.Index, results.Player{Name: white, Time: we.Time.String()}, results.Player{Name: black, Time: be.Time.String()}, g.Opening)
}

func (o pageObserver) MovePlayed(game int, move results.Move, gameString string) {
	o.to.MovePlayed(game, move, gameString)
}

func (o pageObserver) GameFinished(r *results.Record, _ arbiter.Standings) { o.to.GameFinished(r) }

func engineNames(cfg arbiter.Config) []string {
	var names []string
	for _, e := range cfg.Engines {
		names = append(names, e.Name)
	}
	return names
}

// readRecords gives every record already in the records file (a resumed run's) to the pages.
func readRecords(path string, o report.Observer) error {
	recs, err := results.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for i := range recs {
		o.GameFinished(&recs[i])
	}
	return nil
}
