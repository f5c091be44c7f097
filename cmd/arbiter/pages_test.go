package main

import (
	"fmt"
	"slices"
	"time"

	"errors"
	"hivearbiter/arbiter"
	"hivearbiter/results"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/report"
)

// TestMatchPages plays a short match with -report and a live page, and checks that the report
// holds every game at the end.
func TestMatchPages(t *testing.T) {
	page := filepath.Join(t.TempDir(), "run.html")
	recs, out, err := playMatch(t, append(append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...),
		"-each", "st=0.05", "fractional=true", "-rounds", "2", "-maxplies", "30", "-report", page, "-http", "127.0.0.1:0")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "Live page at http://127.0.0.1:") {
		t.Errorf("the match did not say where its live page is:\n%s", out)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"games":4,`; len(recs) != 4 || !strings.Contains(string(b), want) {
		t.Errorf("%d games recorded; the report does not hold %s", len(recs), want)
	}
}

func TestMatchRefusesAPublicLivePage(t *testing.T) {
	_, out, err := playMatch(t, append(append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...),
		"-each", "st=0.05", "fractional=true", "-http", "0.0.0.0:0")...)
	var ue usageError
	if !errors.As(err, &ue) || !errors.Is(err, report.ErrPublicAddress) {
		t.Errorf("err = %v, want a usage error refusing the address\n%s", err, out)
	}
}

// recordingPages is a report.Observer that writes down what it is given.
type recordingPages struct{ events []string }

func (r *recordingPages) GameStarted(game int, white, black results.Player, opening string) {
	r.events = append(r.events, fmt.Sprintf("start %d %s(%s) %s(%s) %s", game, white.Name, white.Time, black.Name, black.Time, opening))
}

func (r *recordingPages) MovePlayed(game int, move results.Move, gameString string) {
	r.events = append(r.events, fmt.Sprintf("move %d %s %s", game, move.Move, gameString))
}

func (r *recordingPages) GameFinished(rec *results.Record) {
	r.events = append(r.events, fmt.Sprintf("end %d %s", rec.Game, rec.Result))
}

// TestPageObserver: the tournament's events reach the pages with the engines' time controls.
func TestPageObserver(t *testing.T) {
	pages := &recordingPages{}
	cfg := arbiter.Config{Engines: []arbiter.EngineConfig{
		{Name: "a", Time: arbiter.TimeControl{MoveTime: time.Second}},
		{Name: "b", Time: arbiter.TimeControl{Base: 10 * time.Second, Increment: 100 * time.Millisecond}},
	}}
	var o arbiter.Observer = pageObserver{to: pages, cfg: cfg}
	o.GameStarted(arbiter.ScheduledGame{Index: 3, White: 1, Black: 0, Opening: "Base"}, "b", "a")
	o.MovePlayed(3, results.Move{Move: "wS1"}, "Base;InProgress;Black[1];wS1")
	o.GameFinished(&results.Record{Game: 3, Result: results.Draw}, arbiter.Standings{})
	want := []string{"start 3 b(10+0.1) a(st=1) Base", "move 3 wS1 Base;InProgress;Black[1];wS1", "end 3 Draw"}
	if !slices.Equal(pages.events, want) {
		t.Errorf("pages got %q, want %q", pages.events, want)
	}
}

// TestMatchConfigTakesPageFlags checks that every reader of match's command line (the README
// test, -config checks) accepts the page flags.
func TestMatchConfigTakesPageFlags(t *testing.T) {
	var stderr strings.Builder
	args := append(append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "random")...), "-each", "st=1", "-report", "run.html", "-http", "127.0.0.1:8080", "-rounds", "3")
	cfg, err := matchConfig(args, &stderr)
	if err != nil || cfg.Rounds != 3 {
		t.Errorf("rounds %d, %v\n%s", cfg.Rounds, err, stderr.String())
	}
}
