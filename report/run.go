package report

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// RunOptions say which pages show a run under way.
type RunOptions struct {
	File   string // a report kept in this file, rewritten as games finish ("" for none)
	HTTP   string // a live page served at this address ("" for none)
	Public bool   // allow HTTP on an address other than loopback
	// Console is told the live page's address.
	Console io.Writer
}

// RunPages are the pages of a tournament under way: an arbiter.Observer that feeds them the
// tournament's games as they are played. Close them when the run ends.
type RunPages struct {
	to     Observers
	cfg    arbiter.Config
	file   *File
	cancel context.CancelFunc
	served chan error
}

// StartRun opens the pages of a run, nil when opts asks for none. Games of a resumed run
// that are already in its records file are given to the pages first. The live page is served
// until ctx ends or the pages are closed.
func StartRun(ctx context.Context, cfg arbiter.Config, opts RunOptions) (*RunPages, error) {
	if opts.File == "" && opts.HTTP == "" {
		return nil, nil
	}
	names := make([]string, len(cfg.Engines))
	for i, e := range cfg.Engines {
		names[i] = e.Name
	}
	pageOpts := Options{Title: strings.Join(names, " vs "), Engines: names}
	if cfg.SPRT != nil {
		test := cfg.SPRT.Test()
		pageOpts.SPRT = &test
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &RunPages{cfg: cfg, cancel: cancel, served: make(chan error, 1)}
	if opts.File != "" {
		p.file = NewFile(opts.File, pageOpts)
		p.to = append(p.to, p.file)
	}
	if opts.HTTP == "" {
		p.served <- nil
	} else {
		ln, err := Listen(opts.HTTP, opts.Public)
		if err != nil {
			cancel()
			return nil, err
		}
		live := NewLive(pageOpts)
		p.to = append(p.to, live)
		go func() { p.served <- live.Serve(ctx, ln) }()
		if opts.Console != nil {
			fmt.Fprintf(opts.Console, "Live page at http://%s/\n", ln.Addr())
		}
	}
	if err := p.resume(cfg.Out); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// ObserveRun feeds pages served by someone else (a pool's live page of each run, say) the
// games of a tournament under way, those already in its records file first: what StartRun
// does, without a listener or a file of its own.
func ObserveRun(cfg arbiter.Config, to ...Observer) (*RunPages, error) {
	p := &RunPages{to: to, cfg: cfg, cancel: func() {}, served: make(chan error, 1)}
	p.served <- nil
	if err := p.resume(cfg.Out); err != nil {
		return nil, err
	}
	return p, nil
}

// resume gives every record of the run already in the records file (a resumed run's) to the
// pages: in a file that many runs share (a rating list's), only those of this run.
func (p *RunPages) resume(path string) error {
	recs, err := results.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if p.cfg.SharedRecords {
		run, err := p.cfg.Fingerprint()
		if err != nil {
			return err
		}
		recs = slices.DeleteFunc(recs, func(r results.Record) bool { return r.Run != run })
	}
	for i := range recs {
		p.to.GameFinished(&recs[i])
	}
	return nil
}

// Close stops the live page and writes the report file a last time.
func (p *RunPages) Close() error {
	p.cancel()
	err := <-p.served
	if p.file != nil {
		err = errors.Join(err, p.file.Flush())
	}
	return err
}

// GameStarted implements arbiter.Observer.
func (p *RunPages) GameStarted(g arbiter.ScheduledGame, white, black string) {
	we, be := p.cfg.Engines[g.White], p.cfg.Engines[g.Black]
	p.to.GameStarted(g.Index, results.Player{Name: white, Time: we.Time.String()}, results.Player{Name: black, Time: be.Time.String()}, g.Opening)
}

// MovePlayed implements arbiter.Observer.
func (p *RunPages) MovePlayed(game int, move results.Move) {
	p.to.MovePlayed(game, move)
}

// GameFinished implements arbiter.Observer.
func (p *RunPages) GameFinished(r *results.Record, _ arbiter.Standings) { p.to.GameFinished(r) }
