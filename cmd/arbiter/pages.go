package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"hivearbiter/arbiter"
	"hivearbiter/internal/cli"
	"hivearbiter/report"
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

// start opens the pages of a run (see report.StartRun); nil pages when none were asked for.
func (p pageFlags) start(ctx context.Context, cfg arbiter.Config, stdout io.Writer) (*report.RunPages, error) {
	pages, err := report.StartRun(ctx, cfg, report.RunOptions{File: p.report, HTTP: p.http, Public: p.public, Console: stdout})
	if errors.Is(err, report.ErrPublicAddress) {
		return nil, cli.Usage(fmt.Errorf("%w (give -http-public to serve on %s)", err, p.http))
	}
	return pages, err
}
