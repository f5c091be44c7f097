package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"hivearbiter/arbiter"
	"hivearbiter/configs"
	"hivearbiter/enginecheck"
	"hivearbiter/proto/ugi"
)

const checkUsage = `check -engine "PROG ARGS..." [-games N] [-plies N] [-seed N] [-v]
       arbiter check -engine cmd=PROG [name=N] [arg=A]... [option.NAME=V]...

Checks that an engine speaks UHP as the arbiter needs: banner and capabilities, newgame for every
advertised game type, validmoves against the referee over random games, play/undo round trips,
newgame with a GameString, "bestmove depth 1" and "bestmove time 00:00:01" answered in time,
whether it reads "bestmove time 00:00:00.500" and survives SIGINT during bestmove (and so which
time setting to give it), an illegal move answered with invalidmove, an unknown command with err,
and options that parse. The engine is started afresh after a failed check, so that each row
judges one thing. Prints a pass/fail table (-v: with each detail whole); exits with code 5 when
any check fails.`

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	// -engine takes either one argument, "PROG ARGS...", or key=value words as in match.
	var command string
	var words, rest []string
	for i := 0; i < len(args); i++ {
		if a := args[i]; (a == "-engine" || a == "--engine") && i+1 < len(args) {
			if next := args[i+1]; strings.Contains(strings.Fields(next + " x")[0], "=") {
				for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && strings.Contains(args[i+1], "=") {
					i++
					words = append(words, args[i])
				}
			} else {
				command = next
				i++
			}
			continue
		}
		rest = append(rest, args[i])
	}
	fs := newFlagSet("check", checkUsage, stderr)
	fs.Func("engine", `the engine: "PROG ARGS..." (split on spaces, no shell) or key=value words`, func(string) error { return nil })
	games := fs.Int("games", 3, "random games whose valid moves are compared with the referee's")
	plies := fs.Int("plies", 30, "plies per random game")
	seed := fs.Uint64("seed", 1, "seed of the random games")
	verbose := fs.Bool("v", false, "print each check's detail whole instead of cut to the table's width")
	if err := parseFlags(fs, rest); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q (quote the engine command: -engine \"PROG ARGS\")", fs.Arg(0))}
	}
	var engine arbiter.EngineConfig
	switch {
	case len(words) > 0:
		// The time control does not matter to the check, which sets its own limits.
		e, err := configs.ParseEngine(configs.MergeEngine([]string{"st=1"}, words), builtinResolver)
		if err != nil {
			return usageError{err}
		}
		engine = e
	case strings.TrimSpace(command) != "":
		engine = arbiter.EngineConfig{Command: strings.Fields(command)}
		engine.Name = engine.Command[0]
	default:
		return usageError{errors.New(`give the engine to check: -engine "PROG ARGS..."`)}
	}
	fmt.Fprintf(stdout, "Checking %s\n", strings.Join(engine.Command, " "))
	check := enginecheck.Check
	if engine.ProtocolName() == ugi.Name {
		check = enginecheck.CheckUGI
	}
	checks, err := check(ctx, engine, enginecheck.Options{Games: *games, Plies: *plies, Seed: *seed, Margin: 500 * time.Millisecond})
	failed, skipped, cut, err2 := writeCheckTable(stdout, checks, *verbose)
	if err2 != nil {
		return err2
	}
	more := ""
	if cut {
		more = " (run with -v to see each detail whole)"
	}
	if err != nil {
		// The table cuts the detail; the reason the engine did not start is said whole.
		return exitWith(exitEngines, "the engine could not be started, so nothing else was checked: %v", err)
	}
	notRun := ""
	if skipped > 0 {
		notRun = fmt.Sprintf(", %d skipped", skipped)
	}
	if failed > 0 {
		return exitWith(exitEngines, "%d of %d checks failed%s%s", failed, len(checks), notRun, more)
	}
	if skipped > 0 {
		fmt.Fprintf(stdout, "%d of %d checks passed%s.\n", len(checks)-skipped, len(checks), notRun)
		return nil
	}
	fmt.Fprintf(stdout, "All %d checks passed.\n", len(checks))
	return nil
}

// writeCheckTable prints the results of a check as a table, each detail cut to 100 characters
// unless verbose, and counts the failed and skipped checks. cut says whether a detail was cut.
func writeCheckTable(w io.Writer, checks []enginecheck.Result, verbose bool) (failed, skipped int, cut bool, err error) {
	table := tablewriter.NewTable(w,
		tablewriter.WithSymbols(tw.NewSymbols(tw.StyleASCII)),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	)
	table.Header("Check", "Result", "Detail")
	for _, c := range checks {
		result := "pass"
		switch {
		case c.Skipped:
			result = "skip"
			skipped++
		case !c.Passed:
			result = "FAIL"
			failed++
		}
		detail := c.Detail
		if !verbose && len(detail) > 100 {
			detail, cut = detail[:97]+"...", true
		}
		table.Append(c.Name, result, detail)
	}
	return failed, skipped, cut, table.Render()
}
