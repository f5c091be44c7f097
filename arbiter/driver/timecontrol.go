package driver

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// TimeControl is how long an engine may think: a fixed time per move (st), a fixed depth, a
// fixed number of nodes (for protocols that count them), or a game clock with a base and an
// increment (tc). Exactly one of them is set.
type TimeControl struct {
	MoveTime  time.Duration // st=SECONDS
	Depth     int           // depth=N
	Nodes     int64         // nodes=N
	Base      time.Duration // tc=BASE+INC
	Increment time.Duration
}

// IsZero reports whether no time control is set.
func (tc TimeControl) IsZero() bool { return tc == TimeControl{} }

// IsClock reports whether the time control is a game clock.
func (tc TimeControl) IsClock() bool { return tc.Base > 0 }

// String writes the time control as it is configured: "st=1", "depth=3" or "60+0.5".
func (tc TimeControl) String() string {
	switch {
	case tc.Depth > 0:
		return "depth=" + strconv.Itoa(tc.Depth)
	case tc.Nodes > 0:
		return "nodes=" + strconv.FormatInt(tc.Nodes, 10)
	case tc.MoveTime > 0:
		return "st=" + Seconds(tc.MoveTime)
	case tc.Base > 0:
		return Seconds(tc.Base) + "+" + Seconds(tc.Increment)
	}
	return "-"
}

// Seconds writes a duration as time controls write seconds: "1.5", "60", "0.1".
func Seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// TimeControlError reports a time control that cannot be parsed.
type TimeControlError struct {
	Input  string
	Reason string
}

// Error returns what went wrong, as a user reads it.
func (e *TimeControlError) Error() string { return "arbiter: " + e.Message() }

// Message is the error without the package's name.
func (e *TimeControlError) Message() string {
	return fmt.Sprintf("time control %q: %s", e.Input, e.Reason)
}

// ParseTimeControl reads a time control written as engine authors know them: "st=SECONDS",
// "depth=N", "nodes=N" or "tc=BASE+INC" (seconds; the "tc=" prefix is optional, "BASE" alone means no
// increment).
func ParseTimeControl(s string) (TimeControl, error) {
	bad := func(reason string) (TimeControl, error) { return TimeControl{}, &TimeControlError{s, reason} }
	key, val, ok := strings.Cut(strings.TrimSpace(s), "=")
	if !ok {
		key, val = "tc", key
	}
	switch key {
	case "st":
		d, err := parseSeconds(val)
		if err != nil || d <= 0 {
			return bad("st needs a positive number of seconds")
		}
		return TimeControl{MoveTime: d}, nil
	case "depth":
		n, err := strconv.Atoi(val)
		if err != nil || n <= 0 {
			return bad("depth needs a positive whole number")
		}
		return TimeControl{Depth: n}, nil
	case "nodes":
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil || n <= 0 {
			return bad("nodes needs a positive whole number")
		}
		return TimeControl{Nodes: n}, nil
	case "tc":
		if strings.Contains(val, "/") {
			return bad("moves per session are not supported; use BASE+INC in seconds")
		}
		baseStr, incStr, hasInc := strings.Cut(val, "+")
		base, err := parseSeconds(baseStr)
		if err != nil || base <= 0 {
			return bad("the base time needs a positive number of seconds, as in tc=60+0.5")
		}
		var inc time.Duration
		if hasInc {
			if inc, err = parseSeconds(incStr); err != nil || inc < 0 {
				return bad("the increment needs a number of seconds, as in tc=60+0.5")
			}
		}
		return TimeControl{Base: base, Increment: inc}, nil
	}
	return bad(`want "st=SECONDS", "depth=N", "nodes=N" or "tc=BASE+INC"`)
}

func parseSeconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f > 1e7 {
		return 0, errors.New("out of range")
	}
	return time.Duration(f * float64(time.Second)), nil
}

// movesToGo is how many more moves a clock budget assumes when the side has played this many.
// Hive games between engines last about 25 to 30 moves a side (the median of hivebot's
// self-play: 25.5 at st=1, 28-30 at tc=2+0.05; a few reach the move limit). With an
// increment, the first budget assumes 20 more moves, each move played takes half a move off,
// and never fewer than 10 remain: a long game lives on its increments. A fixed 25 left a third of a 2+0.05 clock
// unused at the end of the median game (engines answer before their budget, hivebot after
// three quarters of it on average). Without an increment no time comes back, so a long game
// must not starve: 25, always.
func movesToGo(tc TimeControl, played int) int {
	if tc.Increment <= 0 {
		return 25
	}
	return max(10, 20-played/2)
}

// Clock is the arbiter's game clock for both sides. The arbiter owns time: engines only ever see
// per-move budgets, because UHP has no clock.
type Clock struct {
	tc        [2]TimeControl
	remaining [2]time.Duration
	margin    [2]time.Duration
	played    [2]int // moves charged to each side
}

// Margin is the lateness forgiven on each move of a side.
func (c *Clock) Margin(side int) time.Duration { return c.margin[side] }

// NewClock starts a clock for a game; index 0 is White, 1 is Black. margin is the lateness
// forgiven on each move (pipe and scheduling latency).
func NewClock(white, black TimeControl, whiteMargin, blackMargin time.Duration) *Clock {
	return &Clock{
		tc:        [2]TimeControl{white, black},
		remaining: [2]time.Duration{white.Base, black.Base},
		margin:    [2]time.Duration{whiteMargin, blackMargin},
	}
}

// Remaining is the time left on a side's clock (0 when the side has no clock).
func (c *Clock) Remaining(side int) time.Duration { return c.remaining[side] }

// Budget is the thinking time to offer a side for its next move: the fixed move time, or for a
// clock what is left spread over the moves the game is expected to last (movesToGo) plus three
// quarters of the increment, never more than what is left.
func (c *Clock) Budget(side int) time.Duration {
	tc := c.tc[side]
	switch {
	case tc.MoveTime > 0:
		return tc.MoveTime
	case tc.IsClock():
		rem := c.remaining[side]
		b := rem/time.Duration(movesToGo(tc, c.played[side])) + tc.Increment*3/4
		return max(min(b, rem), 0)
	}
	return 0
}

// Deadline is how long the arbiter waits for the side's answer before it stops the search: the
// budget (or what is left on the clock) plus the margin. depthTimeout bounds a depth or node
// search.
func (c *Clock) Deadline(side int, depthTimeout time.Duration) time.Duration {
	tc := c.tc[side]
	switch {
	case tc.MoveTime > 0:
		return tc.MoveTime + c.margin[side]
	case tc.IsClock():
		return c.remaining[side] + c.margin[side]
	}
	return depthTimeout
}

// Charge takes the time a side used for a move off its clock and adds the increment. It returns
// how long the side was allowed for the move and whether it lost on time: it did when it used
// more than allowed plus the margin.
func (c *Clock) Charge(side int, used time.Duration) (allowed time.Duration, lost bool) {
	tc := c.tc[side]
	switch {
	case tc.MoveTime > 0:
		allowed = tc.MoveTime
	case tc.IsClock():
		allowed = c.remaining[side]
		c.remaining[side] = max(c.remaining[side]-used, 0) + tc.Increment
		c.played[side]++
	default:
		return 0, false
	}
	return allowed, used > allowed+c.margin[side]
}

// State is both clocks as they stand before the ply with this index: what a side to move on a
// game clock is told. It is nil when neither side plays on a clock.
func (c *Clock) State(plies int) *ClockState {
	if !c.tc[0].IsClock() && !c.tc[1].IsClock() {
		return nil
	}
	return &ClockState{
		Remaining: c.remaining,
		Increment: [2]time.Duration{c.tc[0].Increment, c.tc[1].Increment},
		Plies:     plies,
	}
}
