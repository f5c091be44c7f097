package report

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
)

// recordingPages is a report.Observer that writes down what it is given.
type recordingPages struct{ events []string }

func (r *recordingPages) GameStarted(game int, white, black results.Player, opening string) {
	r.events = append(r.events, fmt.Sprintf("start %d %s(%s) %s(%s) %s", game, white.Name, white.Time, black.Name, black.Time, opening))
}

func (r *recordingPages) MovePlayed(game int, move results.Move) {
	r.events = append(r.events, fmt.Sprintf("move %d %s", game, move.Move))
}

func (r *recordingPages) GameFinished(rec *results.Record) {
	r.events = append(r.events, fmt.Sprintf("end %d %s", rec.Game, rec.Result))
}

// TestPageObserver: the tournament's events reach the pages with the engines' time controls.
func TestPageObserver(t *testing.T) {
	pages := &recordingPages{}
	cfg := arbiter.Config{Engines: []driver.EngineConfig{
		{Name: "a", Time: driver.TimeControl{MoveTime: time.Second}},
		{Name: "b", Time: driver.TimeControl{Base: 10 * time.Second, Increment: 100 * time.Millisecond}},
	}}
	var o arbiter.Observer = &RunPages{to: Observers{pages}, cfg: cfg}
	o.GameStarted(arbiter.ScheduledGame{Index: 3, White: 1, Black: 0, Opening: "Base"}, "b", "a")
	o.MovePlayed(3, results.Move{Move: "wS1"})
	o.GameFinished(&results.Record{Game: 3, Result: results.Draw}, arbiter.Standings{})
	want := []string{"start 3 b(10+0.1) a(st=1) Base", "move 3 wS1", "end 3 Draw"}
	if !slices.Equal(pages.events, want) {
		t.Errorf("pages got %q, want %q", pages.events, want)
	}
}
