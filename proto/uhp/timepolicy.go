package uhp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
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
)

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
func (f timeFacts) policy() driver.TimePolicy {
	return driver.TimePolicy{WholeSeconds: !f.fractional, Interruptible: f.interruptible,
		Detail: f.fractionsBy + "; " + f.interruptBy}
}

// probes caches the facts probed, by program, for the life of the process: a run, or a
// worker's runs. Two engines of one program under other options share them.
var probes sync.Map // programKey -> *probed

type probed struct {
	mu    sync.Mutex
	done  bool
	facts timeFacts
}

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
// on eng, once per program. restart is called when a probe left eng dead (it died of SIGINT);
// the engine returned is the one to use from then on.
func timeFactsOf(ctx context.Context, e driver.EngineConfig, eng *uhpclient.Engine, restart restarter) (timeFacts, *uhpclient.Engine, error) {
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
	entry, _ := probes.LoadOrStore(programKey(e), &probed{})
	p := entry.(*probed)
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done {
		var found timeFacts
		found, eng, err = probe(ctx, eng, restart)
		if err != nil {
			return facts, eng, err
		}
		p.facts, p.done = found, true
	}
	if probeFractions {
		facts.fractional, facts.fractionsBy = p.facts.fractional, p.facts.fractionsBy
	}
	if probeInterrupt && !facts.fractional {
		facts.interruptible, facts.interruptBy = p.facts.interruptible, p.facts.interruptBy
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
	move, took, err := probeSearch(ctx, eng, uhpclient.Limit{Time: fractionProbe, FractionalSeconds: true}, 0)
	switch {
	case err == nil:
		facts.fractional = true
		facts.fractionsBy = fmt.Sprintf("reads fractions of a second (probed: bestmove time 00:00:00.100 answered %s in %.3f s)", move, took.Seconds())
	default:
		facts.fractionsBy = fmt.Sprintf("reads whole seconds (probed: bestmove time 00:00:00.100 %s)", probeFailure(err))
	}
	if eng, err = alive(ctx, eng, restart); err != nil {
		return facts, eng, err
	}
	if facts.fractional {
		facts.interruptBy = sentExactly
		return facts, eng, nil
	}
	eng.Note("time probe: does the engine survive SIGINT during a search?")
	move, took, err = probeSearch(ctx, eng, uhpclient.Limit{Time: interruptProbe}, interruptProbeAt)
	switch {
	case err != nil:
		facts.interruptBy = fmt.Sprintf("never interrupted (probed: SIGINT during bestmove time 00:00:03: %s)", probeFailure(err))
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
func probeSearch(ctx context.Context, eng *uhpclient.Engine, l uhpclient.Limit, interruptAt time.Duration) (string, time.Duration, error) {
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
