package uhp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/uhpclient"
)

// SettingInterrupt is the setting that says whether the engine survives SIGINT during a search
// (interrupt=true) or dies of it (interrupt=false); unset, a probe finds out.
const SettingInterrupt = "interrupt"

// The probes of an engine's time handling. UHP has no stop command and most engines written
// elsewhere read "bestmove time" in whole seconds and die of SIGINT (nokamute, Mzinga on mono,
// Python engines: reference UHP-NOTES.md 7.7), so the arbiter finds out once per program what
// it can take, and sends every budget so that the engine needs no interrupting.
const (
	// fractionProbe is the search time of the probe for fractions of a second.
	fractionProbe = 100 * time.Millisecond
	// interruptProbe is the search time of the probe for SIGINT, interruptProbeAt when it is
	// sent: an engine that answers before interruptStopped has stopped on the signal. The
	// search is long next to the signal's time, so that a loaded machine's slow answer (0.77 s
	// at load 8) is not taken for an engine that searched on.
	interruptProbe   = 3 * time.Second
	interruptProbeAt = 250 * time.Millisecond
	interruptStopped = 2 * time.Second
	// probeSlack is how much longer than its search time a probe waits for the answer: the
	// probes run on loaded machines too.
	probeSlack = 3 * time.Second
	// fractionSlack is how much later than a fraction of a second it was sent an engine may
	// answer and still be said to read fractions, by the match's probe and the check alike:
	// one that answers 0.1 s thirty times over reads something else.
	fractionSlack = time.Second
)

// keepsToFraction reports whether a search sent a fraction of a second, which answered after
// took, kept to it: the one judgement of the probe and the check.
func keepsToFraction(sent, took time.Duration) bool { return took <= sent+fractionSlack }

// sentExactly is why an engine that reads fractions of a second is never interrupted.
const sentExactly = "never interrupted (it is sent its budgets exactly)"

// timeFacts are what the arbiter knows of an engine's time handling.
type timeFacts struct {
	fractional    bool
	interruptible bool
	// fractionsBy and interruptBy say where each fact comes from: a setting, or what the probe
	// saw.
	fractionsBy, interruptBy string
}

// policy is the facts as the arbiter reports them.
func (f timeFacts) policy() TimePolicy {
	return TimePolicy{WholeSeconds: !f.fractional, Interruptible: f.interruptible,
		Detail: f.fractionsBy + "; " + f.interruptBy}
}

// programKey is the key of an engine's probed facts in a run's driver.Memo: its program,
// directory and environment. Two engines of one program under other options share them.
func programKey(e driver.EngineConfig) string {
	return strings.Join(e.Command, "\x00") + "\x01" + e.Dir + "\x01" + strings.Join(e.Env, "\x00")
}

// settings reads fractional= and interrupt=: each a fact, or unknown (nil) for a probe to find.
func settings(e driver.EngineConfig) (fractional, interrupt *bool, err error) {
	read := func(key string) (*bool, error) {
		v := e.Setting(key)
		if v == "" || v == "auto" {
			return nil, nil
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, &driver.ConfigError{Msg: fmt.Sprintf("%s=%s: want true, false or auto (the arbiter finds out)", key, v)}
		}
		return &b, nil
	}
	if fractional, err = read(SettingFractional); err != nil {
		return nil, nil, err
	}
	interrupt, err = read(SettingInterrupt)
	return fractional, interrupt, err
}

// needsProbe reports whether engine e's time handling matters to its time control: only a
// search under a time budget is sent seconds, or may be interrupted.
func needsProbe(e driver.EngineConfig) bool {
	return e.Time.Depth == 0 && e.Time.Nodes == 0 && (e.Time.MoveTime > 0 || e.Time.IsClock())
}

// timeFactsOf returns engine e's time facts: its settings, and what is unknown of them probed
// on eng, once per program in a run (memo; nil probes every time). restart is called when a
// probe left eng dead (it died of SIGINT);
// the engine returned is the one to use from then on.
func timeFactsOf(ctx context.Context, e driver.EngineConfig, memo *driver.Memo, eng *uhpclient.Engine, restart restarter) (timeFacts, *uhpclient.Engine, error) {
	fractional, interrupt, err := settings(e)
	if err != nil {
		return timeFacts{}, eng, err
	}
	facts := timeFacts{fractionsBy: "reads whole seconds", interruptBy: "never interrupted"}
	if fractional != nil {
		facts.fractional = *fractional
		facts.fractionsBy = map[bool]string{true: "reads fractions of a second", false: "reads whole seconds"}[*fractional] +
			" (" + SettingFractional + "=" + strconv.FormatBool(*fractional) + ")"
	}
	if interrupt != nil {
		facts.interruptible = *interrupt
		facts.interruptBy = map[bool]string{true: "survives SIGINT", false: "never interrupted"}[*interrupt] +
			" (" + SettingInterrupt + "=" + strconv.FormatBool(*interrupt) + ")"
	}
	// Interruption matters only to an engine sent more than its budget: one of whole seconds.
	if facts.fractional && interrupt == nil {
		facts.interruptBy = sentExactly
	}
	probeFractions := fractional == nil
	probeInterrupt := interrupt == nil && !(fractional != nil && *fractional)
	if !needsProbe(e) || (!probeFractions && !probeInterrupt) {
		if !needsProbe(e) && probeFractions {
			facts.fractionsBy = "whole seconds (not probed: it searches to a depth)"
		}
		return facts, eng, nil
	}
	learned, err := memo.Once(programKey(e), func() (any, error) {
		var found timeFacts
		found, eng, err = probe(ctx, eng, restart)
		return found, err
	})
	if err != nil {
		return facts, eng, err
	}
	probed := learned.(timeFacts)
	if probeFractions {
		facts.fractional, facts.fractionsBy = probed.fractional, probed.fractionsBy
	}
	if probeInterrupt && !facts.fractional {
		facts.interruptible, facts.interruptBy = probed.interruptible, probed.interruptBy
	} else if probeInterrupt {
		facts.interruptBy = sentExactly
	}
	return facts, eng, nil
}

// restarter starts the engine again after a probe that killed it.
type restarter func(ctx context.Context) (*uhpclient.Engine, error)

// probe finds out, with one short search each, whether the engine reads fractions of a
// second in "bestmove time" and whether it survives SIGINT during a search. An engine that a
// probe left dead is started again; the error is that start's.
func probe(ctx context.Context, eng *uhpclient.Engine, restart restarter) (timeFacts, *uhpclient.Engine, error) {
	var facts timeFacts
	eng.Note("time probe: does the engine read fractions of a second in bestmove time?")
	move, took, err := probeSearch(ctx, eng, uhpclient.BestMoveArgs{Time: fractionProbe, FractionalSeconds: true}, 0)
	switch {
	case err == nil && !keepsToFraction(fractionProbe, took):
		facts.fractionsBy = fmt.Sprintf("reads whole seconds (probed: bestmove time 00:00:00.100 answered %s only in %.3f s, more than %v over: it does not keep to a fraction of a second)",
			move, took.Seconds(), fractionSlack)
	case err == nil:
		facts.fractional = true
		facts.fractionsBy = fmt.Sprintf("reads fractions of a second (probed: bestmove time 00:00:00.100 answered %s in %.3f s)", move, took.Seconds())
	case errors.As(err, new(*uhpclient.EngineError)):
		facts.fractionsBy = fmt.Sprintf("reads whole seconds (probed: bestmove time 00:00:00.100 %s)", probeFailure(err))
	default:
		// A probe that got no answer (no "ok", no reply in time, a crash) says nothing of
		// fractions: whole seconds is the assumption that loses no game, and it is said so.
		facts.fractionsBy = fmt.Sprintf("taken to read whole seconds, the safe side (the probe learned nothing: bestmove time 00:00:00.100 %s)", probeFailure(err))
	}
	if eng, err = alive(ctx, eng, restart); err != nil {
		return facts, eng, err
	}
	if facts.fractional {
		facts.interruptBy = sentExactly
		return facts, eng, nil
	}
	eng.Note("time probe: does the engine survive SIGINT during a search?")
	move, took, err = probeSearch(ctx, eng, uhpclient.BestMoveArgs{Time: interruptProbe}, interruptProbeAt)
	switch {
	case errors.As(err, new(*uhpclient.ExitError)):
		facts.interruptBy = fmt.Sprintf("never interrupted (probed: SIGINT during bestmove time 00:00:03: %s)", probeFailure(err))
	case err != nil:
		facts.interruptBy = fmt.Sprintf("never interrupted, the safe side (the probe learned nothing: SIGINT during bestmove time 00:00:03: %s)", probeFailure(err))
	case took < interruptProbeAt:
		facts.interruptBy = fmt.Sprintf("never interrupted (probed: it answered bestmove time 00:00:03 in %.3f s, before SIGINT)", took.Seconds())
	case took >= interruptStopped:
		facts.interruptBy = fmt.Sprintf("never interrupted (probed: SIGINT at %.3f s did not stop its search; it answered at %.3f s)", interruptProbeAt.Seconds(), took.Seconds())
	default:
		facts.interruptible = true
		facts.interruptBy = fmt.Sprintf("survives SIGINT (probed: interrupted at %.3f s, it answered %s at %.3f s)", interruptProbeAt.Seconds(), move, took.Seconds())
	}
	eng, err = alive(ctx, eng, restart)
	return facts, eng, err
}

// probeSearch asks for a move from the start of a Base game, interrupting the search at
// interruptAt if that is not zero.
func probeSearch(ctx context.Context, eng *uhpclient.Engine, l uhpclient.BestMoveArgs, interruptAt time.Duration) (string, time.Duration, error) {
	cctx, cancel := context.WithTimeout(ctx, l.Time+probeSlack)
	defer cancel()
	if _, err := eng.NewGame(cctx, "Base"); err != nil {
		return "", 0, err
	}
	if interruptAt > 0 {
		stop := time.AfterFunc(interruptAt, func() { eng.Interrupt() })
		defer stop.Stop()
	}
	start := time.Now()
	move, err := eng.BestMove(cctx, l)
	return move, time.Since(start), err
}

// probeFailure says in a few words how a probe's search failed.
func probeFailure(err error) string {
	var (
		engErr *uhpclient.EngineError
		exit   *uhpclient.ExitError
		tm     *uhpclient.TimeoutError
	)
	switch {
	case errors.As(err, &engErr):
		return "answered err " + engErr.Message
	case errors.As(err, &exit):
		return "it died"
	case errors.As(err, &tm):
		return "it did not answer in time"
	}
	return err.Error()
}

// alive returns eng if it still answers, or a new engine started with restart.
func alive(ctx context.Context, eng *uhpclient.Engine, restart restarter) (*uhpclient.Engine, error) {
	cctx, cancel := context.WithTimeout(ctx, probeSlack)
	_, err := eng.NewGame(cctx, "Base")
	cancel()
	if err == nil {
		return eng, nil
	}
	eng.Kill()
	if restart == nil || ctx.Err() != nil {
		return eng, fmt.Errorf("uhp: the engine did not survive the probe of its time handling: %w", err)
	}
	return restart(ctx)
}

// wholeSecondMoves is how many moves of a side a clock must last an engine of whole seconds
// for: Hive games between engines last 25 to 30 moves a side (movesToGo), and a long one 40.
const wholeSecondMoves = 40

// wholeSecondOvershoot is how much longer than the second it is sent such an engine is taken to
// search, on a loaded machine: without it the clocks advised run out near the 40th move (the
// figures are in docs/experiments/measurements.md, the load allowance).
const wholeSecondOvershoot = 250 * time.Millisecond

// WholeSecondProblem says what a time control does to an engine of whole seconds that cannot
// be interrupted (TimePolicy): a budget under one second is sent as one second, which such an
// engine uses whole, so a move time under a second loses on time at once, and a clock whose
// budgets fall under a second runs out. It returns "" when the engine's clock lasts
// wholeSecondMoves moves, and otherwise the problem, with the shortest clock of the same
// increment, or the move time, that works.
func WholeSecondProblem(tc driver.TimeControl, p TimePolicy) string {
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

// TimePolicy is how a player is sent its time budgets, as its protocol found out (a probe
// before the first game) or was told (the engine's settings).
type TimePolicy struct {
	// WholeSeconds: the player reads only whole seconds, and is sent its budgets rounded
	// down, never under one second; a budget under one second is sent longer than it is.
	WholeSeconds bool
	// Interruptible: a search may be stopped early (SIGINT) and still answers; the arbiter
	// stops one only when it sent more than the budget.
	Interruptible bool
	// Detail says how each fact was learned, for the console and the records.
	Detail string
}
