package console

import (
	"fmt"
	"io"
	"sync"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// Options say what an Observer prints beyond the lines of the games.
type Options struct {
	// Progress keeps a live status line under the lines, redrawn in place: set it only when the
	// writer is a terminal.
	Progress bool
	// ResumeHint is printed when the run is interrupted: the command that resumes it.
	ResumeHint string
	// Report, if set, writes the result tables of the games so far (WriteStandings, say) when
	// they are due; r.Final marks the last one.
	Report func(w io.Writer, r arbiter.StandingsReport)
}

// A Reporter is an arbiter.Runner with lines of its own for each result block: a remote
// runner says who played the games. They follow the Report of the Options, under the same
// lock.
type Reporter interface {
	WriteReport(w io.Writer)
}

// Observer prints a tournament's run on a console (see the package doc). It serializes the
// lines of the runner's workers, the collector and whoever writes to it (it is an io.Writer):
// with a live line, each line printed first clears it, and it is drawn again below. It is safe
// for concurrent use; one Observer watches one tournament at a time.
type Observer struct {
	opts Options

	mu          sync.Mutex
	w           io.Writer
	progress    *progressLine   // nil: no live line
	names       []string        // the engines of the run, for the live line's score
	warned      map[string]bool // the warnings shown once (see warnOnce)
	stopTicking func()          // stops the live line's clock; nil when it does not run
}

var _ arbiter.EventObserver = (*Observer)(nil)

// New returns an Observer that prints to w (nothing, if w is nil) as opts say.
func New(w io.Writer, opts Options) *Observer {
	return &Observer{w: w, opts: opts}
}

// clearLine returns the cursor to the start of the line and erases it (ANSI).
const clearLine = "\r\x1b[K"

// Write prints text of the caller's (whole lines) through the console, under the live line:
// a runner's own lines (workers joining, say) do not overwrite it.
func (c *Observer) Write(p []byte) (int, error) {
	c.printf("%s", p)
	return len(p), nil
}

// GameStarted implements arbiter.Observer: a game's start is printed from the runner's event
// (arbiter.LocalGameStarted), as only this machine's games are.
func (c *Observer) GameStarted(arbiter.ScheduledGame, string, string) {}

// MovePlayed implements arbiter.Observer: the console shows no moves.
func (c *Observer) MovePlayed(int, results.Move) {}

// GameFinished implements arbiter.Observer: the game's line, its engines' first warnings,
// and the live line's new figures.
func (c *Observer) GameFinished(r *results.Record, s arbiter.Standings) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.linef("Finished game %d (%s vs %s): %s {%s}\n", r.Game+1, r.White.Name, r.Black.Name, r.Result, r.Detail)
	c.warnOnce(r)
	if c.progress != nil && c.w != nil {
		c.progress.setStandings(c.names, s)
		c.draw()
	}
}

// warnOnce shows an engine's first warning (an anomaly that did not decide a game); the others
// are in the records, and arbiter stats counts them. c.mu is held.
func (c *Observer) warnOnce(r *results.Record) {
	if c.warned == nil {
		c.warned = map[string]bool{}
	}
	for _, w := range r.Warnings {
		who := w.Engine // "" for a warning about no engine, which is shown once too
		key := who
		if w.Kind != "" { // a kind of its own is shown once too, after the engine's others
			key += "\x00" + w.Kind
		}
		if c.warned[key] {
			continue
		}
		c.warned[key] = true
		if who == "" {
			c.linef("Warning: game %d: %s (further warnings are only in the records)\n", r.Game+1, w.Text)
			continue
		}
		c.linef("Warning: game %d: %s (%s's further warnings are only in the records; arbiter stats counts them)\n", r.Game+1, w.Text, who)
	}
}

// Event implements arbiter.EventObserver: it prints what the run says.
func (c *Observer) Event(e arbiter.Event) {
	switch e := e.(type) {
	case arbiter.RunStarted:
		c.start(e)
		return
	case arbiter.GamesEnded:
		c.stop()
		return
	case arbiter.StandingsReport:
		c.report(e)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch e := e.(type) {
	case arbiter.RecordsDamaged:
		for _, line := range e.Damage.Lines(true) { // the log removed a cut tail
			c.linef("Warning: %s\n", line)
		}
	case arbiter.RunResumed:
		c.linef("Resuming run %s from %s: %d of the %d scheduled games already played, %d to play\n",
			e.Run, e.Records, e.Played, e.Scheduled, e.Scheduled-e.Played)
		if e.Beyond > 0 {
			c.linef("(%d more games in the file lie beyond this schedule, as after fewer -rounds: they count in the tables)\n", e.Beyond)
		}
	case arbiter.EngineTiming:
		c.linef("Engine %s: %s\n", e.Engine, e.Timing)
		if e.Problem != "" {
			c.linef("Warning: engine %s %s\n", e.Engine, e.Problem)
		}
	case arbiter.EngineFailedPreflight:
		c.linef("Warning: engine %s: %v; it plays on under -on-engine-failure forfeit\n", e.Engine, e.Err)
	case arbiter.EngineBroken:
		c.linef("Engine %s is broken (%v): it forfeits its remaining games, and the others play on\n", e.Engine, e.Err)
	case arbiter.LocalGameStarted:
		c.linef("Started game %d of %d (%s vs %s)\n", e.Game.Index+1, e.Of, e.White, e.Black)
		c.updateRunning(+1)
	case arbiter.LocalGameEnded:
		if e.Stopped {
			c.linef("Game %d (%s vs %s) stopped before its end: not counted\n", e.Game.Index+1, e.White, e.Black)
		}
		c.updateRunning(-1)
	case arbiter.GameDiscarded:
		r := e.Record
		c.linef("Game %d (%s vs %s) finished after the run stopped: not counted\n", r.Game+1, r.White.Name, r.Black.Name)
	case arbiter.StrictStopped:
		c.linef("Strict: stopping at the first misbehaviour (game %d, %s); the games in flight are not counted\n", e.Record.Game+1, e.Record.Reason)
	case arbiter.FailureStreakStopped:
		f := e.Failure
		c.linef("Stopping: engine %s failed %d games in a row by %s; the games in flight are not counted\n", f.Engine, f.Games, f.Reason)
	case arbiter.RunInterrupted:
		c.linef("Tournament was interrupted after %d of %d games.\n", e.Played, e.Scheduled)
		if c.opts.ResumeHint != "" {
			c.linef("To resume it, run: %s\n", c.opts.ResumeHint)
		}
	}
}

// start takes a run's engines and, with Progress, turns the live line on and its clock.
func (c *Observer) start(e arbiter.RunStarted) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.names = e.Engines
	c.warned = nil
	if !c.opts.Progress || c.w == nil {
		return
	}
	c.progress = &progressLine{scheduled: e.Scheduled, resumed: e.Resumed, started: time.Now()}
	c.progress.setStandings(c.names, e.Standings)
	c.draw()
	c.stopTicking = c.tick(time.Second)
}

// stop erases the live line for good and stops its clock, waiting for it.
func (c *Observer) stop() {
	c.mu.Lock()
	if c.progress != nil && c.w != nil {
		io.WriteString(c.w, clearLine)
	}
	c.progress = nil
	stopTicking := c.stopTicking
	c.stopTicking = nil
	c.mu.Unlock()
	if stopTicking != nil {
		stopTicking() // outside the lock, which a tick takes
	}
}

// report writes the result tables (the Options' Report, then a Reporter runner's lines) with
// the console to itself, the live line cleared; it is drawn again after.
func (c *Observer) report(e arbiter.StandingsReport) {
	if c.opts.Report == nil || c.w == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clear()
	c.opts.Report(c.w, e)
	if r, ok := e.Runner.(Reporter); ok {
		r.WriteReport(c.w)
	}
	c.draw()
}

// printf prints a line with the console to itself.
func (c *Observer) printf(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.linef(format, args...)
}

// linef prints a line on the live line's cleared row, and draws the live line again below it.
// c.mu is held.
func (c *Observer) linef(format string, args ...any) {
	if c.w == nil {
		return
	}
	c.clear()
	fmt.Fprintf(c.w, format, args...)
	c.draw()
}

// updateRunning changes the live line's count of games running by n, and redraws it. c.mu is
// held.
func (c *Observer) updateRunning(n int) {
	if c.progress == nil || c.w == nil {
		return
	}
	c.progress.running += n
	c.draw()
}

// clear erases the live line's row, if there is a live line. c.mu is held.
func (c *Observer) clear() {
	if c.progress != nil {
		io.WriteString(c.w, clearLine)
	}
}

// draw draws the live line, if there is one, on the current row. c.mu is held.
func (c *Observer) draw() {
	if c.progress != nil {
		io.WriteString(c.w, clearLine+c.progress.text(time.Now()))
	}
}

// redraw draws the live line again (for its clock).
func (c *Observer) redraw() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.w != nil {
		c.draw()
	}
}

// tick redraws the live line every interval (for its clock) until the returned function is
// called, which waits for the ticking goroutine to end.
func (c *Observer) tick(interval time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				c.redraw()
			case <-done:
				return
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}
