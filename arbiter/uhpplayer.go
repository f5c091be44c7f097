package arbiter

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"hivearbiter/results"
	"hivearbiter/uhpclient"
)

// transcriptSeq numbers transcript files within a process.
var transcriptSeq atomic.Int64

// UHPStarter returns a StartFunc that runs engines as UHP subprocesses. With a transcript
// directory, every process's conversation (lines in and out, with timestamps) goes to its own
// file there, so that a user can see what an engine said before it was forfeited.
func UHPStarter(transcriptDir string, grace time.Duration) StartFunc {
	return func(ctx context.Context, e EngineConfig, worker int) (Player, error) {
		cfg := uhpclient.Config{Command: e.Command, Dir: e.Dir, Env: e.Env, Name: e.Name, GraceTimeout: grace}
		if deadline, ok := ctx.Deadline(); ok {
			cfg.StartTimeout = time.Until(deadline)
		}
		var transcript *os.File
		if transcriptDir != "" {
			if err := os.MkdirAll(transcriptDir, 0o755); err != nil {
				return nil, fmt.Errorf("arbiter: transcripts: %w", err)
			}
			name := fmt.Sprintf("%s-w%d-%03d.log", safeFileName(e.Name), worker, transcriptSeq.Add(1))
			f, err := os.Create(filepath.Join(transcriptDir, name))
			if err != nil {
				return nil, fmt.Errorf("arbiter: transcripts: %w", err)
			}
			transcript = f
			cfg.Transcript = f
		}
		eng, err := uhpclient.Start(ctx, cfg)
		if err != nil {
			if transcript != nil {
				transcript.Close()
			}
			return nil, err
		}
		p := &uhpPlayer{engine: eng, fractional: e.FractionalSeconds, transcript: transcript}
		for _, o := range e.Options {
			if _, err := eng.SetOption(ctx, o.Name, o.Value); err != nil {
				p.Close(ctx)
				return nil, fmt.Errorf("arbiter: setting option %s=%s: %w", o.Name, o.Value, err)
			}
		}
		return p, nil
	}
}

func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == ' ' {
			return '_'
		}
		return r
	}, s)
}

// uhpPlayer is a Player backed by a UHP engine process.
type uhpPlayer struct {
	engine     *uhpclient.Engine
	fractional bool
	transcript *os.File
}

func (p *uhpPlayer) ID() string { return p.engine.Info().ID }

func (p *uhpPlayer) NewGame(ctx context.Context, gameString string) (string, error) {
	gs, err := p.engine.NewGame(ctx, gameString)
	return gs, classify(err, false)
}

func (p *uhpPlayer) Play(ctx context.Context, move string) (string, error) {
	var gs string
	var err error
	if move == "pass" {
		gs, err = p.engine.Pass(ctx)
	} else {
		gs, err = p.engine.Play(ctx, move)
	}
	return gs, classify(err, false)
}

func (p *uhpPlayer) BestMove(ctx context.Context, limit Limit) (string, error) {
	// The client rounds to whole seconds (at least one) for engines without fractions.
	l := uhpclient.Limit{Depth: limit.Depth, FractionalSeconds: p.fractional}
	if limit.Depth == 0 {
		l.Time = limit.Time
	}
	move, err := p.engine.BestMove(ctx, l)
	return move, classify(err, true)
}

func (p *uhpPlayer) Close(ctx context.Context) error {
	err := p.engine.Close(ctx)
	if p.transcript != nil {
		p.transcript.Close()
	}
	return err
}

// classify turns the client's errors into the reasons the arbiter adjudicates.
func classify(err error, search bool) error {
	if err == nil {
		return nil
	}
	var (
		exit    *uhpclient.ExitError
		timeout *uhpclient.TimeoutError
		proto   *uhpclient.ProtocolError
		invalid *uhpclient.InvalidMoveError
		engErr  *uhpclient.EngineError
	)
	reason := results.ReasonProtocol
	switch {
	case errors.As(err, &exit):
		reason = results.ReasonCrash
	case errors.As(err, &timeout):
		reason = results.ReasonStall
		if search {
			reason = results.ReasonTimeForfeit
		}
	case errors.As(err, &proto):
		reason = results.ReasonProtocol
	case errors.As(err, &invalid), errors.As(err, &engErr):
		// The engine refused a command the referee holds legal: its game is not the referee's.
		// Refusing to search is a broken conversation instead.
		reason = results.ReasonDesync
		if search {
			reason = results.ReasonProtocol
		}
	case errors.Is(err, context.DeadlineExceeded):
		reason = results.ReasonStall
	}
	return &PlayerError{Reason: reason, Err: err}
}
