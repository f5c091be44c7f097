package console

import (
	"strings"
	"sync"
	"testing"
	"time"

	"hivearbiter/results"
)

func TestProgressLineText(t *testing.T) {
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		p    progressLine
		at   time.Duration
		want string
	}{
		{"nothing played", progressLine{scheduled: 100, running: 2}, 3 * time.Second,
			"[0/100 games, 2 running] | 3s"},
		{"pace gives the ETA", progressLine{scheduled: 100, played: 25, running: 2, score: "a 15.5 - 9.5 b"}, 50 * time.Second,
			"[25/100 games, 2 running] a 15.5 - 9.5 b | 50s, ETA 2m30s"},
		{"resumed games do not count for the pace", progressLine{scheduled: 100, played: 60, resumed: 50, running: 1}, 100 * time.Second,
			"[60/100 games, 1 running] | 1m40s, ETA 6m40s"},
		{"sprt", progressLine{scheduled: 2000, played: 1000, running: 2, llr: "LLR 1.20 (-2.94, 2.94)"}, 2 * time.Hour,
			"[1000/2000 games, 2 running] | LLR 1.20 (-2.94, 2.94) | 2h00m, ETA 2h00m"},
		{"done has no ETA", progressLine{scheduled: 4, played: 4}, 61 * time.Second,
			"[4/4 games, 0 running] | 1m01s"},
		{"too long for a row is cut", progressLine{scheduled: 4, played: 1, score: strings.Repeat("x", 100)}, time.Second,
			"[1/4 games, 0 running] " + strings.Repeat("x", progressWidth-24) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.p.started = start
			if got := tt.p.text(start.Add(tt.at)); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestScoreText(t *testing.T) {
	two := results.NewTally([]results.Record{
		{Run: "r", Game: 0, White: results.Player{Name: "a"}, Black: results.Player{Name: "b"}, Result: results.WhiteWins},
		{Run: "r", Game: 1, Pair: 0, White: results.Player{Name: "b"}, Black: results.Player{Name: "a"}, Result: results.Draw},
	}, []string{"a", "b"})
	if got, want := scoreText([]string{"a", "b"}, two), "a 1.5 - 0.5 b"; got != want {
		t.Errorf("two engines: %q, want %q", got, want)
	}
	three := results.NewTally([]results.Record{
		{Run: "r", Game: 0, White: results.Player{Name: "a"}, Black: results.Player{Name: "b"}, Result: results.BlackWins},
		{Run: "r", Game: 1, White: results.Player{Name: "c"}, Black: results.Player{Name: "b"}, Result: results.Draw},
	}, []string{"a", "b", "c"})
	if got, want := scoreText([]string{"a", "b", "c"}, three), "leader b 75.0%"; got != want {
		t.Errorf("three engines: %q, want %q", got, want)
	}
}

// TestConsoleTickRace redraws the live line from a fast ticker while lines are printed, the
// figures updated and the line stopped: under -race, any access to the line outside the lock
// is reported.
func TestConsoleTickRace(t *testing.T) {
	var out strings.Builder // the console writes it under its lock only
	c := New(&out, Options{})
	c.progress = &progressLine{scheduled: 10, started: time.Now()}
	stopTicking := c.tick(50 * time.Microsecond)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 50 {
				c.printf("line %d.%d\n", i, j)
				c.mu.Lock()
				c.updateRunning(+1)
				c.mu.Unlock()
			}
		})
	}
	wg.Wait()
	c.stop()
	time.Sleep(20 * time.Millisecond) // the ticker goes on redrawing a stopped line
	c.mu.Lock()
	if c.progress != nil {
		t.Error("the stopped line is still there")
	}
	c.mu.Unlock()
	stopTicking()
	if n := strings.Count(out.String(), "line "); n != 200 {
		t.Errorf("%d lines printed, want 200", n)
	}
}
