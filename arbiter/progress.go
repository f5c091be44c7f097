package arbiter

import (
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"

	"hivearbiter/results"
)

// console serializes the lines that workers and the collector print. With a progress line, it
// keeps a live status line under them (on a terminal): each line printed first clears it, and
// it is drawn again below.
type console struct {
	mu       sync.Mutex
	w        io.Writer
	progress *progressLine // nil: no live line
}

// clearLine returns the cursor to the start of the line and erases it (ANSI).
const clearLine = "\r\x1b[K"

func (c *console) printf(format string, args ...any) {
	if c == nil || c.w == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.progress != nil {
		io.WriteString(c.w, clearLine)
	}
	fmt.Fprintf(c.w, format, args...)
	c.drawLocked()
}

// Write prints text of the caller's (whole lines) through the console, under the live line.
func (c *console) Write(p []byte) (int, error) {
	c.printf("%s", p)
	return len(p), nil
}

// locked runs f with the console to itself, the live line cleared; it is redrawn after.
func (c *console) locked(f func(w io.Writer)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.progress != nil {
		io.WriteString(c.w, clearLine)
	}
	f(c.w)
	c.drawLocked()
}

// update changes the live line's figures and redraws it.
func (c *console) update(f func(p *progressLine)) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.progress == nil || c.w == nil {
		return
	}
	f(c.progress)
	c.drawLocked()
}

// startProgress turns the live line on.
func (c *console) startProgress(p *progressLine) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.progress = p
}

// tick redraws the live line every interval (for its clock) until the returned function is
// called, which waits for the ticking goroutine to end.
func (c *console) tick(interval time.Duration) (stop func()) {
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

// redraw draws the live line again (for its clock).
func (c *console) redraw() { c.update(func(*progressLine) {}) }

// stop erases the live line for good.
func (c *console) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.progress == nil || c.w == nil {
		return
	}
	io.WriteString(c.w, clearLine)
	c.progress = nil
}

func (c *console) drawLocked() {
	if c.progress != nil {
		io.WriteString(c.w, clearLine+c.progress.text(time.Now()))
	}
}

// progressLine is what the live line shows: games played of those scheduled, games running,
// the score, the SPRT's LLR, the time spent and the time left at the current pace.
type progressLine struct {
	scheduled int
	played    int // finished games, resumed ones included
	resumed   int // finished before this run started
	running   int
	score     string // the head-to-head score or the leader, from the tally
	llr       string // the SPRT, if any
	started   time.Time
}

// progressWidth keeps the live line on one row of a standard terminal: a wrapped line could
// not be redrawn in place.
const progressWidth = 79

// text formats the live line at time now.
func (p *progressLine) text(now time.Time) string {
	s := fmt.Sprintf("[%d/%d games, %d running]", p.played, p.scheduled, p.running)
	if p.score != "" {
		s += " " + p.score
	}
	if p.llr != "" {
		s += " | " + p.llr
	}
	elapsed := now.Sub(p.started)
	s += " | " + shortDuration(elapsed)
	if n := p.played - p.resumed; n > 0 && p.played < p.scheduled {
		left := time.Duration(float64(elapsed) / float64(n) * float64(p.scheduled-p.played))
		s += ", ETA " + shortDuration(left)
	}
	if utf8.RuneCountInString(s) > progressWidth {
		r := []rune(s)
		s = string(r[:progressWidth-1]) + "…"
	}
	return s
}

// setStandings takes the score and the SPRT from the standings.
func (p *progressLine) setStandings(names []string, s Standings) {
	p.played = s.Tally.Games
	p.score = scoreText(names, s.Tally)
	p.llr = ""
	if s.SPRT != nil {
		p.llr = fmt.Sprintf("LLR %.2f (%.2f, %.2f)", s.SPRT.LLR, s.SPRT.Lower, s.SPRT.Upper)
	}
}

// scoreText is the head-to-head score of two engines, or the leader of a larger field.
func scoreText(names []string, t *results.Tally) string {
	if t.Games == 0 {
		return ""
	}
	if len(names) == 2 {
		p := t.Pairing(names[0], names[1])
		if p == nil {
			return ""
		}
		return fmt.Sprintf("%s %s - %s %s", names[0], points(p.WDL.Points()), points(float64(p.WDL.Games())-p.WDL.Points()), names[1])
	}
	var leader *results.PlayerTally
	for _, pl := range t.Players {
		if pl.WDL.Games() > 0 && (leader == nil || pl.WDL.Score() > leader.WDL.Score()) {
			leader = pl
		}
	}
	if leader == nil {
		return ""
	}
	return fmt.Sprintf("leader %s %.1f%%", leader.Name, 100*leader.WDL.Score())
}

// points prints a score without a useless ".0".
func points(x float64) string {
	if x == float64(int64(x)) {
		return fmt.Sprint(int64(x))
	}
	return fmt.Sprintf("%.1f", x)
}

// shortDuration prints a duration as 45s, 3m07s or 2h05m.
func shortDuration(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
}
