package uhp

import (
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/driver"
)

// An engine of whole seconds that cannot be interrupted is told before its first game what
// its time control does to it, with a clock that works; any other engine, or a time control
// that gives it a second a move, is told nothing.
func TestWholeSecondProblem(t *testing.T) {
	whole := TimePolicy{WholeSeconds: true}
	tc := func(base, inc float64) driver.TimeControl {
		return driver.TimeControl{Base: time.Duration(base * float64(time.Second)), Increment: time.Duration(inc * float64(time.Second))}
	}
	tests := []struct {
		name   string
		tc     driver.TimeControl
		policy TimePolicy
		want   []string // nil: no problem
	}{
		// The README's clock: 10/20 + 0.075 = 0.575 s from the first move.
		{"10+0.1", tc(10, 0.1), whole, []string{"on 10+0.1 its budget is under 1 s from its move 1 (0.575 s)", "runs out at about its move 9", "tc=105+0.1 or longer, or st=1"}},
		{"60+0.6", tc(60, 0.6), whole, nil},
		{"20+0.2", tc(20, 0.2), whole, []string{"from its move 6", "tc=91+0.2 or longer"}},
		{"st=0.5", driver.TimeControl{MoveTime: 500 * time.Millisecond}, whole, []string{"st=0.5 is sent as 1 s, so it loses on time on its first move; give it st=1 or more"}},
		{"st=1", driver.TimeControl{MoveTime: time.Second}, whole, nil},
		{"st=1.5", driver.TimeControl{MoveTime: 1500 * time.Millisecond}, whole, nil},
		{"depth", driver.TimeControl{Depth: 3}, whole, nil},
		{"interruptible", tc(10, 0.1), TimePolicy{WholeSeconds: true, Interruptible: true}, nil},
		{"fractions", tc(10, 0.1), TimePolicy{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := WholeSecondProblem(tt.tc, tt.policy)
			if (got == "") != (tt.want == nil) {
				t.Fatalf("got %q; want a problem: %v", got, tt.want != nil)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q does not say %q", got, w)
				}
			}
		})
	}
}

// The clock the advice names lasts, and the one a second shorter does not.
func TestShortestWholeSecondBase(t *testing.T) {
	for _, inc := range []time.Duration{0, 100 * time.Millisecond, 200 * time.Millisecond, 600 * time.Millisecond, time.Second} {
		base := shortestWholeSecondBase(inc)
		if _, out, _ := spendWholeSeconds(driver.TimeControl{Base: base, Increment: inc}, wholeSecondMoves); out >= 0 {
			t.Errorf("+%v: %v runs out at move %d", inc, base, out)
		}
		for longer := base; longer < base+2*time.Minute; longer += time.Second { // "or longer" holds
			if _, out, _ := spendWholeSeconds(driver.TimeControl{Base: longer, Increment: inc}, wholeSecondMoves); out >= 0 {
				t.Errorf("+%v: %v lasts, but the longer %v runs out at move %d", inc, base, longer, out)
				break
			}
		}
		if base > time.Second {
			if _, out, _ := spendWholeSeconds(driver.TimeControl{Base: base - time.Second, Increment: inc}, wholeSecondMoves); out < 0 {
				t.Errorf("+%v: %v lasts too, and is shorter than %v", inc, base-time.Second, base)
			}
		}
	}
}
