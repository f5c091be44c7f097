package evaluate

import (
	"context"
	"fmt"
	"strings"

	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/cli"
	"hivearbiter/openings"
)

// BookSettings are what "arbiter openings generate" is given: the generation's settings and
// the evaluator's. The same settings make the same book.
type BookSettings struct {
	openings.GenerateConfig
	// Depth is the evaluation's search depth: hivebot's, or Engine's.
	Depth int
	// Playout evaluates by the game hivebot plays from the position against itself at Depth,
	// not by its search.
	Playout bool
	// Engine, if set, is a UHP program and its arguments (split on spaces) that evaluates by
	// the game it plays against itself at Depth.
	Engine string
}

// SettingsError is a book's evaluator that cannot be made from its settings (a depth out of
// range): the settings are wrong, not the machine.
type SettingsError struct{ Err error }

// Error is the setting's own error: the type only tells the caller it is the user's to fix.
func (e *SettingsError) Error() string { return e.Err.Error() }

// Unwrap returns the setting's error.
func (e *SettingsError) Unwrap() error { return e.Err }

// GenerateBook makes the book the settings say, with the evaluator they name (an Engine is
// started now, through its protocol, and stopped before it returns), and the header the book
// is written under: what it holds, the command line that makes it again, its evaluator and the
// draw's counts. Wrong settings are a *SettingsError or wrap openings.ErrGenerateConfig.
func GenerateBook(ctx context.Context, s BookSettings) (*openings.Generated, []string, error) {
	ev, stop, err := s.evaluator(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer stop()
	book, err := openings.Generate(ctx, s.GenerateConfig, ev)
	if err != nil {
		return nil, nil, err
	}
	header := []string{
		fmt.Sprintf("Hive opening book: %d %s positions after %d plies, distinct up to symmetry.", len(book.Positions), s.GameType, s.Plies),
		"Made by: " + s.Command(),
		"Evaluated by " + ev.Describe() + fmt.Sprintf("; kept within [-%d, %d].", s.Band, s.Band),
		fmt.Sprintf("Chosen from %d distinct positions, %d within the band, in %d groups of placed bugs.", book.Distinct, book.InBand, book.Groups),
	}
	if book.Exhausted {
		header = append(header, "The draw ran out of new positions before it had as many candidates as asked.")
	}
	return book, header, nil
}

// evaluator is hivebot's search or playout, or the Engine program started now; the function
// it returns stops that engine.
func (s BookSettings) evaluator(ctx context.Context) (openings.Evaluator, func(), error) {
	if s.Engine == "" && s.Playout {
		ev, err := NewPlayout(s.Depth, 0)
		if err != nil {
			return nil, nil, &SettingsError{err}
		}
		return ev, func() {}, nil
	}
	if s.Engine == "" {
		ev, err := NewSearch(s.Depth)
		if err != nil {
			return nil, nil, &SettingsError{err}
		}
		return ev, func() {}, nil
	}
	if s.Depth < 1 {
		return nil, nil, &SettingsError{fmt.Errorf("-depth %d: want 1 or more", s.Depth)}
	}
	// The engine is started as a match starts one, through its protocol (UHP, the default):
	// Engine gives its program and arguments alone.
	e, err := driver.Start(ctx, driver.EngineConfig{Command: strings.Fields(s.Engine)}, driver.StartEnv{})
	if err != nil {
		return nil, nil, err
	}
	return &Engine{Player: e, Depth: s.Depth}, func() { e.Close(context.WithoutCancel(ctx)) }, nil
}

// Command is the command line that makes the same book.
func (s BookSettings) Command() string {
	c := fmt.Sprintf("arbiter openings generate -game-type %s -plies %d -count %d -seed %d -depth %d -band %d", s.GameType, s.Plies, s.Count, s.Seed, s.Depth, s.Band)
	if s.Playout {
		c += " -playout"
	}
	if s.Balance {
		c += " -balance"
	}
	if s.Candidates > 0 {
		c += fmt.Sprintf(" -candidates %d", s.Candidates)
	}
	if s.Engine != "" {
		c += " -engine " + cli.QuoteArgs([]string{s.Engine})
	}
	return c
}
