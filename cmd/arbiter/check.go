package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"hivearbiter/arbiter"
	"hivearbiter/configs"
)

const checkUsage = `check -engine "PROG ARGS..." [-games N] [-plies N] [-seed N] [-v]
       arbiter check -engine cmd=PROG [proto=P] [name=N] [arg=A]... [option.NAME=V]... [SETTING=V]...

Checks that an engine speaks its protocol (proto=, UHP by default) as the arbiter needs, with the
protocol's own suite: its banner or greeting, games or positions against the referee (every answer
a legal move), malformed and illegal answers, answers in time, and its options or settings. UHP:
also validmoves, play/undo, newgame with a GameString, the time setting to give it (fractions of a
second, SIGINT during bestmove) and the replies to an illegal move and an unknown command. The
engine is started afresh after a failed check, so that each row judges one thing. Prints a
pass/fail table (-v: with each detail whole); exits with code 5 when any check fails.`

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	rest, groups := splitMultiWord(commandAsWords(args))
	fs := newFlagSet("check", checkUsage, stderr)
	fs.Func("engine", `the engine: "PROG ARGS..." (split on spaces, no shell) or key=value words`, func(string) error { return nil })
	games := fs.Int("games", 3, "random games played against the referee (UHP: whose valid moves are compared with its own)")
	plies := fs.Int("plies", 30, "plies per random game")
	seed := fs.Uint64("seed", 1, "seed of the random games")
	verbose := fs.Bool("v", false, "print each check's detail whole instead of cut to the table's width")
	if err := parseFlags(fs, rest); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q (quote the engine command: -engine \"PROG ARGS\")", fs.Arg(0))}
	}
	if len(groups["engine"]) != 1 || len(groups["engine"][0]) == 0 {
		return usageError{errors.New(`give the engine to check, once: -engine "PROG ARGS..."`)}
	}
	// The time control is the engine's own when it gives one; the suites set their own limits.
	engine, err := configs.ParseEngine(configs.MergeEngine([]string{"st=1"}, groups["engine"][0]), builtinResolver)
	if err != nil {
		return usageError{err}
	}
	fmt.Fprintf(stdout, "Checking %s\n", strings.Join(engine.Command, " "))
	checks, err := arbiter.CheckEngine(ctx, engine, arbiter.CheckOptions{Games: *games, Plies: *plies, Seed: *seed})
	if len(checks) == 0 && err != nil {
		return usageError{err} // a protocol without a check
	}
	counts, cut, tableErr := writeCheckTable(stdout, checks, *verbose)
	if tableErr != nil {
		return tableErr
	}
	failed, skipped := counts[arbiter.CheckFailed], counts[arbiter.CheckSkipped]
	notRun := ""
	if skipped > 0 {
		notRun = fmt.Sprintf(", %d skipped", skipped)
	}
	switch {
	case err != nil:
		// The table cuts the detail; the reason the engine did not start is said whole.
		return exitWith(exitEngines, "the engine could not be started, so nothing else was checked: %v", err)
	case failed > 0 && cut:
		return exitWith(exitEngines, "%d of %d checks failed%s (run with -v to see each detail whole)", failed, len(checks), notRun)
	case failed > 0:
		return exitWith(exitEngines, "%d of %d checks failed%s", failed, len(checks), notRun)
	case skipped > 0:
		fmt.Fprintf(stdout, "%d of %d checks passed%s.\n", len(checks)-skipped, len(checks), notRun)
	default:
		fmt.Fprintf(stdout, "All %d checks passed.\n", len(checks))
	}
	return nil
}

// commandAsWords rewrites -engine "PROG ARGS..." as the words cmd=PROG arg=ARG..., so that
// an engine given either way is read as match reads it.
func commandAsWords(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		out = append(out, args[i])
		if a := args[i]; (a == "-engine" || a == "--engine") && i+1 < len(args) {
			fields := strings.Fields(args[i+1])
			if len(fields) > 0 && !strings.Contains(fields[0], "=") {
				out = append(out, "cmd="+fields[0])
				for _, f := range fields[1:] {
					out = append(out, "arg="+f)
				}
				i++
			}
		}
	}
	return out
}

// writeCheckTable prints the results of a check as a table, each detail cut to 100 characters
// unless verbose, and counts the results by status. cut says whether a detail was cut.
func writeCheckTable(w io.Writer, checks []arbiter.CheckResult, verbose bool) (counts map[arbiter.CheckStatus]int, cut bool, err error) {
	table := tablewriter.NewTable(w,
		tablewriter.WithSymbols(tw.NewSymbols(tw.StyleASCII)),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	)
	table.Header("Check", "Result", "Detail")
	counts = map[arbiter.CheckStatus]int{}
	for _, c := range checks {
		counts[c.Status]++
		detail := c.Detail
		if !verbose && len(detail) > 100 {
			detail, cut = detail[:97]+"...", true
		}
		table.Append(c.Name, c.Status.String(), detail)
	}
	return counts, cut, table.Render()
}
