package console

import (
	"fmt"
	"time"
	"unicode/utf8"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

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
func (p *progressLine) setStandings(names []string, s arbiter.Standings) {
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
