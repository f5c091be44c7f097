package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"hivearbiter/arbiter/check"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/ci"
	"hivearbiter/configs"
	"hivearbiter/internal/cli"
	"hivearbiter/results"
)

const checkUsage = `check -engine "PROG ARGS..." [-games N] [-plies N] [-seed N] [-concurrency N] [-searches N] [-quick] [-start-timeout SECONDS] [-transcript FILE] [-v] [-junit FILE]
       arbiter check -engine cmd=PROG [proto=P] [name=N] [arg=A]... [option.NAME=V]... [SETTING=V]...

Checks that an engine speaks its protocol (proto=, UHP by default) as the arbiter needs, with the
protocol's own suite: its banner or greeting, games or positions against the referee (every answer
a legal move), malformed and illegal answers, answers in time, and its options or settings. UHP:
also validmoves, play/undo, newgame with a GameString, a draw claimed on threefold repetition, the
time setting to give it (fractions of a second, SIGINT during bestmove, and the margin its
overshoot needs, measured through games from the start to the engine's 20th move at the limit
given, -concurrency N of them at once as a run of -concurrency N plays them), the options fair timing sets, whether it answers
one search alike every time (determinism), and the replies to an illegal move and an unknown
command. The engine is started afresh after a failed check, so that each row judges one thing,
and the check goes on past each fault where the protocol allows; a row whose prerequisite failed
says "not checked: needs ROW". The first line names the first cause of the faults found and its
fix, then every cause with its rows (docs/check.md: my engine fails check); the rows that only
warn (unknown command, options, determinism, bench) share a time budget, and -quick takes a
first look in seconds. Prints a pass/fail table (-v: with each detail on one line), then the
settings a match needs, whole, and a match command against the bundled engine that plays as
pasted (its -engine line, given once for each build with that build's cmd=, makes a gate); with
-junit a JUnit XML file of a test case per row; under GitHub Actions each failed row is an
annotation. Exits with code 5 when a row fails: a fault a match meets, which refuses the engine
before game 1 or forfeits its games; a warning (a fault a match never meets, such as err
answered for an illegal move, or answers that differ from search to search) is listed and exits
0.`

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	rest, groups := splitMultiWord(configs.CommandAsWords(args))
	fs := newFlagSet("check", checkUsage, stderr)
	fs.Func("engine", `the engine: "PROG ARGS..." (split on spaces, no shell) or key=value words`, func(string) error { return nil })
	games := fs.Int("games", 3, "random games played against the referee (UHP: whose valid moves are compared with its own)")
	plies := fs.Int("plies", 30, "plies per random game")
	seed := fs.Uint64("seed", 1, "seed of the random games")
	concurrency := fs.Int("concurrency", 1, "UHP: games played at once to measure the engine's overshoot, as the match's -concurrency will play them")
	searches := fs.Int("searches", compliance.DefaultSearches, "UHP: the engine's moves from the start of each game whose timed searches measure its overshoot (fewer: a quicker check, a margin from the opening alone)")
	verbose := fs.Bool("v", false, "print each check's detail on one line instead of wrapped to the table's width")
	quick := fs.Bool("quick", false, "a first look: one game, one search of each kind, the optional rows in a few seconds, no determinism or bench")
	startTimeout := fs.Float64("start-timeout", 10, "`seconds` the engine may take to start (its banner), as a match's -start-timeout")
	transcript := fs.String("transcript", "", "write the conversation with every process of the engine to `FILE` (UHP engines), as a match's -transcripts")
	var reports ci.Reports
	bindGateReports(fs, &reports, true)
	if err := cli.Parse(fs, rest); err != nil {
		return err
	}
	if *concurrency < 1 {
		return cli.Usage(fmt.Errorf("-concurrency %d: want 1 or more", *concurrency))
	}
	if fs.NArg() > 0 {
		return cli.Usage(fmt.Errorf("unexpected argument %q (quote the engine command: -engine \"PROG ARGS\")", fs.Arg(0)))
	}
	if len(groups["engine"]) != 1 || len(groups["engine"][0]) == 0 {
		return cli.Usage(errors.New(`give the engine to check, once: -engine "PROG ARGS..."`))
	}
	// The engine's own time control, if it gives one, bounds its moves where a suite plays games.
	engine, err := configs.ParseEngine(configs.MergeEngine([]string{"st=1"}, groups["engine"][0]), builtinResolver)
	if err != nil {
		return cli.Usage(err)
	}
	files := reports.Files()
	if *transcript != "" {
		files = append(files, results.NamedFile{Flag: "-transcript", Path: *transcript, Write: true})
	}
	if err := checkFiles(files, ""); err != nil {
		return err
	}
	if *startTimeout <= 0 {
		return cli.Usage(fmt.Errorf("-start-timeout %v: want seconds above 0", *startTimeout))
	}
	opts := compliance.Options{Games: *games, Plies: *plies, Seed: *seed, Quick: *quick,
		StartTimeout: time.Duration(*startTimeout * float64(time.Second))}
	if *transcript != "" {
		f, err := os.Create(*transcript)
		if err != nil {
			return cli.Usage(fmt.Errorf("-transcript: %w", err))
		}
		defer func() {
			if info, err := f.Stat(); err == nil && info.Size() == 0 {
				// A protocol whose check keeps none: said, rather than an empty file unexplained.
				fmt.Fprintf(stderr, "-transcript %s: nothing was written: this protocol's check keeps no transcript (a match's -transcripts DIR does)\n", *transcript)
			}
			f.Close()
		}()
		opts.Transcript = f
	}
	subject := cmp.Or(strings.Join(engine.Command, " "), engine.Addr)
	// The progress line goes to stderr: stdout begins with what the check found.
	fmt.Fprintf(stderr, "Checking %s\n", subject)
	started := time.Now()
	opts.Concurrency = *concurrency
	if *searches < 1 {
		return cli.Usage(fmt.Errorf("-searches %d: want 1 or more", *searches))
	}
	if !*quick {
		opts.Searches = *searches
	}
	checks, err := check.Run(ctx, engine, opts)
	if len(checks) == 0 && err != nil {
		return cli.Usage(err) // a protocol without a check
	}
	if rerr := reports.WriteCheck(stdout, cmp.Or(engine.Name, subject), checks, err, started); rerr != nil {
		return rerr
	}
	if err := compliance.WriteVerdict(stdout, cmp.Or(engine.Name, engine.Script(), engine.DefaultName(), subject), checks); err != nil {
		return err
	}
	width := 100
	if *verbose {
		width = 0
	}
	_, tableErr := compliance.WriteTable(stdout, checks, width)
	summary, failed := compliance.Summarize(checks)
	switch {
	case tableErr != nil:
		return tableErr
	case err != nil: // the table cuts the detail; why the engine did not start is said whole
		return cli.Exit(ci.ExitEngines, "the engine could not be started, so nothing else was checked: %v", err)
	}
	writeCheckAdvice(stdout, engine, checks, failed, builtinResolver)
	if failed {
		return cli.Exit(ci.ExitEngines, "%s", summary)
	}
	fmt.Fprintln(stdout, summary+".")
	return nil
}
