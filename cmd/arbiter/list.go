package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"hivearbiter/arbiter/driver"
	"hivearbiter/ci"
	"hivearbiter/configs"
	"hivearbiter/internal/cli"
	"hivearbiter/ratinglist"
	"hivearbiter/ratinglist/site"
	"hivearbiter/results"
)

const listUsage = `list run|table|site|verify|plan LIST.toml [flags]
       arbiter list example > my-list.toml

Keeps a standing rating list of engines (docs/rating-lists.md): a TOML file of its conditions
(game type, one limit, openings, adjudication, an anchor, an error target) and its entrants
(name, version, the -engine words that arbiter check prints), and one records file of every
game played for it.

  run     plays the list's gauntlets until every entrant's error is at the target (or its game
          budget is spent): a new entrant is checked (arbiter check under the list's conditions)
          and plays only its own games; a run stopped at any point resumes where it stopped. The
          site is rewritten after each batch. An entrant that fails its check, or cannot start
          or play the list's game type, is refused with its reason and its report, and the list
          goes on without it; the run then ends with exit 5. A refused entrant is checked again
          when its program changes, or with -recheck.
  table   prints the table with its conditions (-format text, markdown or json).
  site    writes the site: pages, PGN, JSON and CSV (-out DIR, the list's site folder by default).
  verify  re-referees every recorded game and recomputes the table; with a site written, checks
          that its table.json is the same. Names every game that does not replay (exit 1).
  plan    says which batch the list plays next, and why.
  example prints an example list file: hivebot's profiles.`

func runList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("list", listUsage, stderr)
	format := fs.String("format", "text", "table: text, markdown or json")
	out := fs.String("out", "", "site: the folder to write (the list's site folder by default)")
	batches := fs.Int("batches", 0, "run: stop after this many batches (0: when every entrant is done)")
	quiet := fs.Bool("q", false, "run: print only each batch and the final table, not each game")
	recheck := fs.Bool("recheck", false, "run: check the refused entrants again, though their programs did not change")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 1 && fs.Arg(0) == "example" {
		_, err := stdout.Write(configs.ListExample())
		return err
	}
	if fs.NArg() != 2 {
		return cli.Usage(errors.New(`want "arbiter list COMMAND LIST.toml" (COMMAND: run, table, site, verify or plan; see arbiter list -h)`))
	}
	l, err := configs.ReadList(fs.Arg(1), builtinResolver)
	if err != nil {
		return cli.Usage(err)
	}
	recs, err := ratinglist.ReadRecords(l.Records)
	if err != nil {
		return err
	}
	switch fs.Arg(0) {
	case "run":
		return listRun(ctx, l, recs, listRunOptions{batches: *batches, quiet: *quiet, recheck: *recheck}, stdout)
	case "table":
		t, err := ratinglist.Compute(l, recs)
		if err != nil {
			return err
		}
		err = site.WriteTable(stdout, l, t, *format)
		if errors.Is(err, site.ErrTableFormat) {
			return cli.Usage(fmt.Errorf("-format %s: %w", *format, site.ErrTableFormat))
		}
		return err
	case "site":
		dir := cmp.Or(*out, l.Site)
		if err := site.WriteFrom(dir, l, recs); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Wrote the site of %s to %s (open %s)\n", l.Name, dir, filepath.Join(dir, site.IndexFile))
		return nil
	case "verify":
		err := site.Verify(stdout, cmp.Or(*out, l.Site), l, recs)
		if errors.As(err, new(*ratinglist.VerifyError)) || errors.As(err, new(*site.TableMismatchError)) {
			return cli.Exit(ci.ExitFailure, "%s", cli.Message(err))
		}
		return err
	case "plan":
		return ratinglist.WritePlan(stdout, l, recs)
	}
	return cli.Usage(fmt.Errorf("list %s: no such command (run, table, site, verify or plan)", fs.Arg(0)))
}

// listRunOptions are arbiter list run's flags.
type listRunOptions struct {
	batches        int
	quiet, recheck bool
}

// listRun plays the list, rewriting its site as batches end, and prints the table. Entrants
// refused on the way end it with exit 5, after the table, as a failed check does.
func listRun(ctx context.Context, l *ratinglist.List, recs []results.Record, opts listRunOptions, stdout io.Writer) error {
	if err := l.IdentifyAll(ratinglist.ThisArbiter(), recs); err != nil {
		return cli.Exit(ci.ExitUsage, "%s", driver.Message(err))
	}
	games := stdout
	if opts.quiet {
		games = io.Discard
	}
	writeSite := func(recs []results.Record) error { return site.WriteFrom(l.Site, l, recs) }
	r := &ratinglist.Runner{List: l, Console: stdout, Play: ratinglist.PlayLocally(games), Played: writeSite,
		MaxBatches: opts.batches, Recheck: opts.recheck}
	recs, err := r.Run(ctx)
	var refused *ratinglist.RefusedError
	switch {
	case errors.As(err, &refused):
		return cli.Exit(ci.ExitEngines, "%s", refused.Message())
	case ctx.Err() != nil:
		fmt.Fprintf(stdout, "Stopped; run the same command to go on where it stopped.\n")
		return cli.Exit(ci.ExitInterrupted, "")
	case err != nil:
		return err
	}
	if err := writeSite(recs); err != nil {
		return err
	}
	t, err := ratinglist.Compute(l, recs)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	if err := site.WriteConsole(stdout, l, t); err != nil {
		return err
	}
	var refusals *ratinglist.RefusalsError
	if errors.As(r.Refused(), &refusals) {
		return cli.Exit(ci.ExitEngines, "%s (a changed program is checked again by the next run; -recheck checks an unchanged one again)", refusals.Message())
	}
	return nil
}
