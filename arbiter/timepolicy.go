package arbiter

import (
	"fmt"
	"strings"
	"time"

	"hivearbiter/arbiter/driver"
)

// wholeSecondMoves is how many moves of a side a clock must last an engine of whole seconds
// for: Hive games between engines last 25 to 30 moves a side (movesToGo), and a long one 40.
const wholeSecondMoves = 40

// wholeSecondOvershoot is how much longer than the second it is sent such an engine is taken to
// search: nokamute, Mzinga and a Python engine took 1.20 to 1.23 s for 1 s at load 2 per core,
// and nokamute up to 1.7 s at load 5. Without it, the advice named 37+0.1 for 40 moves, and
// nokamute lost on time there at its 40th move against hivebot, at load 4 per core.
const wholeSecondOvershoot = 250 * time.Millisecond

// WholeSecondProblem says what a time control does to an engine of whole seconds that cannot
// be interrupted (TimePolicy): a budget under one second is sent as one second, which such an
// engine uses whole, so a move time under a second loses on time at once, and a clock whose
// budgets fall under a second runs out. It returns "" when the engine's clock lasts
// wholeSecondMoves moves, and otherwise the problem, with the shortest clock of the same
// increment, or the move time, that works.
func WholeSecondProblem(tc driver.TimeControl, p driver.TimePolicy) string {
	if !p.WholeSeconds || p.Interruptible {
		return ""
	}
	switch {
	case tc.MoveTime > 0 && tc.MoveTime < time.Second:
		return fmt.Sprintf("reads whole seconds and is not interrupted: st=%s is sent as 1 s, so it loses on time on its first move; give it st=1 or more", driver.Seconds(tc.MoveTime))
	case tc.IsClock():
		short, out, budget := spendWholeSeconds(tc, wholeSecondMoves)
		if out < 0 {
			return ""
		}
		return fmt.Sprintf("reads whole seconds and is not interrupted: on %s its budget is under 1 s from its move %d (%.3f s) and is sent as 1 s, "+
			"so its clock runs out at about its move %d. Clocks that last it %d moves: tc=%s+%s or longer, or st=1",
			tc, short+1, budget.Seconds(), out+1, wholeSecondMoves, driver.Seconds(shortestWholeSecondBase(tc.Increment)), driver.Seconds(tc.Increment))
	}
	return ""
}

// spendWholeSeconds plays moves of a side on tc as an engine of whole seconds spends them: each
// budget rounded down to whole seconds, at least one, all of it used and wholeSecondOvershoot
// more. It returns the first
// move, from 0, whose budget is under one second, and that budget, and the move on which the
// clock runs out; out is -1 when the clock lasts all the moves.
func spendWholeSeconds(tc driver.TimeControl, moves int) (short, out int, budget time.Duration) {
	c := driver.NewClock(tc, tc, 0, 0)
	short = -1
	for move := range moves {
		b := c.Budget(0)
		if b < time.Second && short < 0 {
			short, budget = move, b
		}
		if _, lost := c.Charge(0, max(b.Truncate(time.Second), time.Second)+wholeSecondOvershoot); lost {
			return short, move, budget
		}
	}
	return short, -1, budget
}

// shortestWholeSecondBase is the shortest base, in whole seconds, of a clock with this
// increment that lasts an engine of whole seconds wholeSecondMoves moves. Whether a clock
// lasts is not monotonic in its base (a longer base gives budgets of more whole seconds, all
// spent), so the bases are tried in turn.
func shortestWholeSecondBase(increment time.Duration) time.Duration {
	base := time.Second
	for ; base < time.Hour; base += time.Second {
		if _, out, _ := spendWholeSeconds(driver.TimeControl{Base: base, Increment: increment}, wholeSecondMoves); out < 0 {
			break
		}
	}
	return base
}

// WholeSecondClocks names the shortest clocks, by common increments, that last an engine of
// whole seconds that cannot be interrupted wholeSecondMoves moves: what such an engine can
// play besides st=N and depth=N.
func WholeSecondClocks() string {
	var clocks []string
	for _, inc := range []time.Duration{0, 100 * time.Millisecond, 200 * time.Millisecond, 600 * time.Millisecond, time.Second} {
		clocks = append(clocks, fmt.Sprintf("tc=%s+%s", driver.Seconds(shortestWholeSecondBase(inc)), driver.Seconds(inc)))
	}
	return fmt.Sprintf("%d moves a side: %s or longer", wholeSecondMoves, strings.Join(clocks, ", "))
}
