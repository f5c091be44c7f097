//go:build unix

package uhpclient

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// A reply whose answer came whole but whose "ok" never did is a broken conversation named as
// such (Fault MissingOK), not a search that ran out of time: the engine answered in time.
func TestMissingOKIsAProtocolFault(t *testing.T) {
	for _, tc := range []struct {
		name string
		send func(context.Context, *Engine) error
	}{
		{"bestmove", func(ctx context.Context, e *Engine) error {
			_, err := e.BestMove(ctx, BestMoveArgs{Time: 300 * time.Millisecond, FractionalSeconds: true})
			return err
		}},
		{"play", func(ctx context.Context, e *Engine) error { _, err := e.Play(ctx, "wS1"); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mustStartFake(t, "missing-ok")
			ctx, cancel := context.WithTimeout(t.Context(), 800*time.Millisecond)
			defer cancel()
			err := tc.send(ctx, e)
			pe, ok := errors.AsType[*ProtocolError](err)
			if !ok || pe.Fault != MissingOK {
				t.Fatalf("got %v, want a ProtocolError of the fault MissingOK", err)
			}
			if errors.As(err, new(*TimeoutError)) {
				t.Errorf("a missing ok is a timeout too: %v", err)
			}
			if !strings.Contains(err.Error(), `but no "ok" after it`) {
				t.Errorf("the error does not say what is missing: %v", err)
			}
		})
	}
}

// An engine that prints part of a line and waits is told so: the bytes it printed without a
// line end are quoted, where "it printed nothing" would mislead.
func TestTimeoutQuotesALineWithoutItsEnd(t *testing.T) {
	_, err := startFake(t, t.Context(), "no-newline", func(c *Config) { c.StartTimeout = 500 * time.Millisecond })
	te, ok := errors.AsType[*TimeoutError](err)
	if !ok || !strings.HasSuffix(te.Partial, "ok") {
		t.Fatalf("got %v, want a TimeoutError with the partial line", err)
	}
	if !strings.Contains(err.Error(), `"ok" without a line end`) {
		t.Errorf("the error does not quote the line without its end: %v", err)
	}
}

// An engine whose output never leaves its buffer printed nothing, as the arbiter sees it.
func TestUnflushedEnginePrintedNothing(t *testing.T) {
	_, err := startFake(t, t.Context(), "unflushed", func(c *Config) { c.StartTimeout = 500 * time.Millisecond })
	te, ok := errors.AsType[*TimeoutError](err)
	if !ok || len(te.Lines) > 0 || te.Partial != "" {
		t.Fatalf("got %v, want a TimeoutError with nothing printed", err)
	}
}

// An engine that prints its banner only when asked "info" is asked, and told so; a check's
// client takes the banner and goes on.
func TestBannerOnlyOnInfo(t *testing.T) {
	_, err := startFake(t, t.Context(), "banner-on-info", func(c *Config) { c.StartTimeout = 500 * time.Millisecond })
	if pe, ok := errors.AsType[*ProtocolError](err); !ok || pe.Fault != BannerOnInfo {
		t.Fatalf("got %v, want a ProtocolError of the fault BannerOnInfo", err)
	}
	for _, cfg := range []func(*Config){
		func(c *Config) { c.StartTimeout, c.AcceptBannerOnInfo = 500*time.Millisecond, true },
		func(c *Config) { c.AskInfo = true },
	} {
		began := time.Now()
		e := mustStartFake(t, "banner-on-info", cfg)
		if !e.BannerOnInfo() || e.Info().ID != "Fake v1" {
			t.Errorf("BannerOnInfo %v, info %+v", e.BannerOnInfo(), e.Info())
		}
		if _, err := e.NewGame(t.Context(), "Base"); err != nil {
			t.Errorf("after a banner on info: %v", err)
		}
		if took := time.Since(began); cfg != nil && took > 5*time.Second {
			t.Errorf("start took %v", took)
		}
	}
}

// Lines printed before the move are read past, and kept for the caller to warn of.
func TestLinesBeforeTheMove(t *testing.T) {
	e := mustStartFake(t, "debug-lines")
	move, err := e.BestMove(t.Context(), BestMoveArgs{Depth: 1})
	if err != nil || move != "wS1" {
		t.Fatalf("got %q, %v", move, err)
	}
	if got := e.LinesBeforeReply(); !slices.Equal(got, []string{"debug: 3 moves considered", "debug: best so far wS1"}) {
		t.Errorf("lines before the reply: %q", got)
	}
	if got := e.LinesBeforeReply(); got != nil {
		t.Errorf("the lines were not forgotten: %q", got)
	}
}
