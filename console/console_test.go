package console_test

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/console"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/internal/testkit/golden"
	"hivearbiter/results"
)

// reportingRunner is a runner with a line of its own for each result block, as a remote
// runner names its workers.
type reportingRunner struct{ arbiter.Runner }

func (reportingRunner) WriteReport(w io.Writer) { fmt.Fprintln(w, "Workers: w1") }

// run is what a run of two engines tells its observers, in order, from its resume to its
// interruption: every event the console words, and games with warnings.
func run(o *console.Observer) {
	names := []string{"dev", "base"}
	tally := results.NewTally(nil, names)
	standings := arbiter.Standings{Tally: tally}
	game := func(i int) arbiter.ScheduledGame { return arbiter.ScheduledGame{Index: i, Pair: i / 2} }
	record := func(i int, result, detail string, reason results.Reason, warnings ...results.Warning) *results.Record {
		white, black := names[i%2], names[1-i%2]
		return &results.Record{Run: "r1", Game: i, Pair: i / 2, White: results.Player{Name: white}, Black: results.Player{Name: black},
			Result: result, Reason: reason, Detail: detail, Warnings: warnings}
	}
	lateWarning := results.Warning{Side: "White", Engine: "dev", Text: "White (dev): its move came late", Kind: results.WarningNearMargin}
	otherWarning := results.Warning{Side: "White", Engine: "dev", Text: "White (dev): says the game is Draw"}

	o.Event(arbiter.RecordsDamaged{Damage: results.Damage{Path: "games.jsonl", CutTail: 17}})
	o.Event(arbiter.RunResumed{Run: "r1", Records: "games.jsonl", Played: 2, Scheduled: 8, Beyond: 2})
	o.Event(arbiter.RunStarted{Engines: names, Scheduled: 8, Resumed: 4, Standings: standings})
	o.Event(arbiter.EngineTiming{Engine: "dev", Timing: "it is sent its time in whole seconds"})
	o.Event(arbiter.EngineTiming{Engine: "base", Timing: "it is sent its time in whole seconds", Problem: "cannot play 0.5 s a move"})
	o.Event(arbiter.EngineFailedPreflight{Engine: "base", Err: errors.New("its first move would lose")})
	for i := 2; i < 4; i++ {
		o.Event(arbiter.LocalGameStarted{Game: game(i), Of: 8, White: names[i%2], Black: names[1-i%2]})
		o.GameStarted(game(i), names[i%2], names[1-i%2])
		o.MovePlayed(i, results.Move{})
	}
	o.Event(arbiter.LocalGameEnded{Game: game(2), White: "dev", Black: "base"})
	o.GameFinished(record(2, results.WhiteWins, "queen surrounded", results.ReasonQueenSurrounded, otherWarning, lateWarning), standings)
	o.Event(arbiter.LocalGameEnded{Game: game(3), White: "base", Black: "dev"})
	o.GameFinished(record(3, results.BlackWins, "White (base) loses on time", results.ReasonTimeForfeit, otherWarning,
		results.Warning{Text: "the opening repeats"}), standings)
	o.Event(arbiter.StandingsReport{Runner: reportingRunner{}, Standings: standings})
	o.Event(arbiter.EngineBroken{Engine: "base", Err: errors.New("it crashed")})
	o.Event(arbiter.StrictStopped{Record: record(3, results.BlackWins, "", results.ReasonTimeForfeit)})
	o.Event(arbiter.FailureStreakStopped{Failure: &arbiter.FailingError{Engine: "base", Reason: results.ReasonCrash, Games: 3}})
	o.Event(arbiter.GameDiscarded{Record: record(4, results.Draw, "", results.ReasonRepetition)})
	o.Event(arbiter.LocalGameStarted{Game: game(5), Of: 8, White: "base", Black: "dev"})
	o.Event(arbiter.LocalGameEnded{Game: game(5), White: "base", Black: "dev", Stopped: true})
	o.Event(arbiter.GamesEnded{})
	o.Event(arbiter.RunInterrupted{Played: 4, Scheduled: 8})
	o.Event(arbiter.StandingsReport{Runner: reportingRunner{}, Standings: standings, Final: true})
	o.Event(arbiter.GamesEnded{}) // as the arbiter's deferred one comes again
}

func report(w io.Writer, r arbiter.StandingsReport) {
	fmt.Fprintf(w, "Results of %d games (final %v)\n", r.Standings.Tally.Games, r.Final)
}

// TestConsoleLines: the lines a run's events print, each worded as the arbiter printed them
// before it had observers (the golden file), an engine's warnings shown once each (once more
// for a kind of their own), and the hint that resumes an interrupted run.
func TestConsoleLines(t *testing.T) {
	var out strings.Builder
	run(console.New(&out, console.Options{ResumeHint: "arbiter match -rounds 4", Report: report}))
	golden.Check(t, "testdata/run.golden", []byte(out.String()))
}

// TestConsoleWithoutReportOrWriter: without a Report no result block is written, and with no
// writer nothing is, and nothing fails.
func TestConsoleWithoutReportOrWriter(t *testing.T) {
	var out strings.Builder
	run(console.New(&out, console.Options{}))
	if strings.Contains(out.String(), "Workers: w1") {
		t.Errorf("a runner's report lines without a Report:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "Finished game 3 (dev vs base)") || strings.Contains(out.String(), "To resume it") {
		t.Errorf("without a hint or a report, the game lines are still printed, and no hint:\n%s", out.String())
	}
	run(console.New(nil, console.Options{Progress: true, Report: report, ResumeHint: "x"}))
}

var liveLine = regexp.MustCompile(`\x1b\[K\[\d+/\d+ games, \d+ running\][^\r\n]*`)

// TestConsoleLiveLine: with Progress every line is written on a cleared row with the live line
// drawn again below it, a line of the caller's (Write) too, the live line counts the games
// running, and nothing of it is left once the games have ended.
func TestConsoleLiveLine(t *testing.T) {
	var out syncbuf.Buffer
	o := console.New(&out, console.Options{Progress: true, Report: report, ResumeHint: "arbiter match"})
	fmt.Fprintf(o, "Serving run r1\n") // before the run: no live line yet
	o.Event(arbiter.RunStarted{Engines: []string{"dev", "base"}, Scheduled: 8, Standings: arbiter.Standings{Tally: results.NewTally(nil, []string{"dev", "base"})}})
	o.Event(arbiter.LocalGameStarted{Game: arbiter.ScheduledGame{Index: 0}, Of: 8, White: "dev", Black: "base"})
	fmt.Fprintf(o, "Worker w1 joined\n")
	o.Event(arbiter.LocalGameStarted{Game: arbiter.ScheduledGame{Index: 1}, Of: 8, White: "base", Black: "dev"})
	o.Event(arbiter.LocalGameEnded{Game: arbiter.ScheduledGame{Index: 1}, White: "base", Black: "dev", Stopped: true})
	o.Event(arbiter.GamesEnded{})
	o.Event(arbiter.RunInterrupted{Played: 0, Scheduled: 8})
	got := out.String()
	const clear = "\r\x1b[K"
	for _, want := range []string{
		"Serving run r1\n" + clear + "[0/8 games, 0 running] | 0s",
		clear + "Started game 1 of 8 (dev vs base)\n" + clear + "[0/8 games, 0 running]",
		clear + "[0/8 games, 1 running] | 0s" + clear + "Worker w1 joined\n" + clear + "[0/8 games, 1 running]",
		clear + "[0/8 games, 2 running] | 0s" + clear + "Game 2 (base vs dev) stopped before its end: not counted\n",
		"[0/8 games, 1 running] | 0s" + clear + "Tournament was interrupted after 0 of 8 games.\nTo resume it, run: arbiter match\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the console does not hold %q:\n%q", want, got)
		}
	}
	// Drawn at the start, under each of the 4 lines printed during the games (the last one,
	// "interrupted", comes after they ended), and on each of the 3 changes of the games running.
	if n := len(liveLine.FindAllString(got, -1)); n != 8 {
		t.Errorf("the live line was drawn %d times, want 8:\n%q", n, got)
	}
}
