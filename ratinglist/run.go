package ratinglist

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
)

// Runner plays a list's batches until every entrant is done, resuming where the records stop.
type Runner struct {
	List *List
	// Console receives what the runner does; nil discards it.
	Console io.Writer
	// Check enters an entrant: arbiter check under the list's conditions (CheckEntrant unless
	// replaced). Its report is kept under List.Checks and published; an entrant that fails it
	// is refused before its first game.
	Check func(ctx context.Context, e Entrant) (report string, err error)
	// Play plays one batch's tournament: on this machine (PlayLocally) unless replaced, say by
	// a pool.
	Play func(ctx context.Context, cfg arbiter.Config) (*arbiter.Outcome, error)
	// Played is called after each batch, with the records so far (to rewrite the site).
	Played func(recs []results.Record) error
	// MaxBatches stops the run after this many batches (0: none).
	MaxBatches int
}

// RefusedError is an entrant that cannot play under the list's conditions: its check failed.
type RefusedError struct {
	Entrant string
	Reason  string
	Report  string // where its check report is kept
}

func (e *RefusedError) Error() string { return "ratinglist: " + e.Message() }

// Message is the error without the package's name.
func (e *RefusedError) Message() string {
	return fmt.Sprintf("entrant %s is refused: %s (its check report: %s). Fix it and enter it again, or take it off the list", e.Entrant, e.Reason, e.Report)
}

// Run plays the list's batches until every entrant is done, ctx is cancelled or MaxBatches
// batches were played. It returns the records at the end.
func (r *Runner) Run(ctx context.Context) ([]results.Record, error) {
	l := r.List
	say := func(format string, args ...any) {
		if r.Console != nil {
			fmt.Fprintf(r.Console, format, args...)
		}
	}
	check, play := r.Check, r.Play
	if check == nil {
		check = CheckEntrant
	}
	if play == nil {
		play = PlayLocally(r.Console)
	}
	for batches := 0; ; batches++ {
		recs, err := ReadRecords(l.Records)
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return recs, err
		}
		b, ok, err := Next(l, recs)
		if err != nil || !ok || (r.MaxBatches > 0 && batches >= r.MaxBatches) {
			return recs, err
		}
		for _, e := range append([]int{b.Entrant}, b.Opponents...) {
			if err := r.enter(ctx, l.Entrants[e], check, say); err != nil {
				return recs, err
			}
		}
		cfg := l.Config(b)
		if err := sameRun(cfg, b, recs); err != nil {
			return recs, err
		}
		say("%s\n", b.Describe(l))
		out, err := play(ctx, cfg)
		if err != nil {
			return recs, err
		}
		if out != nil && out.Interrupted || ctx.Err() != nil {
			recs, _ := ReadRecords(l.Records)
			return recs, ctx.Err()
		}
		if out != nil && out.FailureStop != nil {
			say("%s is stopped: %s\n", out.FailureStop.Engine, driver.Message(out.FailureStop))
		}
		if r.Played != nil {
			recs, err := ReadRecords(l.Records)
			if err == nil {
				err = r.Played(recs)
			}
			if err != nil {
				return recs, err
			}
		}
	}
}

// enter checks an entrant the first time it is to play, keeping the report.
func (r *Runner) enter(ctx context.Context, e Entrant, check func(context.Context, Entrant) (string, error), say func(string, ...any)) error {
	path := r.List.CheckReport(e)
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	say("Checking %s under the list's conditions\n", e.Player())
	report, cerr := check(ctx, e)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("ratinglist: %w", err)
	}
	if cerr != nil {
		failed := strings.TrimSuffix(path, ".txt") + ".failed.txt"
		if err := os.WriteFile(failed, []byte(report), 0o644); err != nil {
			return fmt.Errorf("ratinglist: %w", err)
		}
		return &RefusedError{Entrant: e.Player(), Reason: driver.Message(cerr), Report: failed}
	}
	if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
		return fmt.Errorf("ratinglist: %w", err)
	}
	return nil
}

// CheckReport is where an entrant's check report is kept.
func (l *List) CheckReport(e Entrant) string {
	return filepath.Join(l.Checks, cmp.Or(Slug(e.Player()), "entrant")+".txt")
}

// CheckReports reads the kept check reports, by entrant.
func (l *List) CheckReports() map[string]string {
	out := map[string]string{}
	for _, e := range l.Entrants {
		if b, err := os.ReadFile(l.CheckReport(e)); err == nil {
			out[e.Player()] = string(b)
		}
	}
	return out
}

// CheckEntrant runs arbiter check's suite on an entrant under the list's conditions and
// returns its report; an error when a check failed that would cost it games.
func CheckEntrant(ctx context.Context, e Entrant) (string, error) {
	checks, err := compliance.Run(ctx, e.Engine, compliance.Options{Games: 2, Plies: 20, Seed: 1})
	var b strings.Builder
	fmt.Fprintf(&b, "arbiter check of %s (%s)\n", e.Player(), strings.Join(e.Words, " "))
	if _, terr := compliance.WriteTable(&b, checks, 0); terr != nil {
		return b.String(), terr
	}
	summary, failed := compliance.Summarize(checks)
	fmt.Fprintln(&b, summary+".")
	switch {
	case err != nil:
		fmt.Fprintf(&b, "The engine could not be started: %v\n", err)
		return b.String(), fmt.Errorf("its program could not be started: %w", err)
	case failed:
		return b.String(), errors.New(summary)
	}
	// On a timed limit the entrant plays with the margin its words give (the arbiter's
	// default without one): one below what its check measured loses games on time.
	given := cmp.Or(e.Engine.Margin, arbiter.DefaultMargin)
	if need, ok := compliance.MarginChecked(checks); ok && need > given && (e.Engine.Time.MoveTime > 0 || e.Engine.Time.IsClock()) {
		why := fmt.Sprintf("its margin, %s s, is below the %s s its overshoot needs under the list's limit (the check's time setting row): give margin=%s in its engine words",
			strconv.FormatFloat(given.Seconds(), 'f', -1, 64), strconv.FormatFloat(need.Seconds(), 'f', -1, 64), strconv.FormatFloat(need.Seconds(), 'f', -1, 64))
		fmt.Fprintln(&b, "Refused: "+why+".")
		return b.String(), errors.New(why)
	}
	return b.String(), nil
}

// PlayLocally plays a batch on this machine's engines, printing its games to console.
func PlayLocally(console io.Writer) func(ctx context.Context, cfg arbiter.Config) (*arbiter.Outcome, error) {
	return func(ctx context.Context, cfg arbiter.Config) (*arbiter.Outcome, error) {
		t, err := arbiter.NewTournament(cfg, arbiter.TournamentOptions{Console: console})
		if err != nil {
			return nil, err
		}
		return t.Play(ctx)
	}
}

// ReadRecords reads a list's records; a file not yet written holds none.
func ReadRecords(path string) ([]results.Record, error) {
	recs, err := results.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return recs, err
}

// Slug is a name as a file name: lower case letters, digits and dashes, none at either end;
// "" for a name without a letter a-z or a digit.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// sameRun refuses to resume a batch whose games so far were played under other settings than
// its configuration now gives (an entrant's margin or options changed in the list file while
// the batch was under way): its games would be two runs' and neither whole.
func sameRun(cfg arbiter.Config, b Batch, recs []results.Record) error {
	begun := ""
	for i := range recs {
		if n, _ := batchOf(&recs[i]); n == b.Number {
			begun = recs[i].Run
			break
		}
	}
	if begun == "" {
		return nil
	}
	if err := cfg.Normalize(); err != nil {
		return err
	}
	run, err := cfg.Fingerprint()
	if err != nil || run == begun {
		return err
	}
	return &Error{fmt.Sprintf("batch %d was begun as run %s, and the list now makes it run %s: an entrant's settings (its margin, options or protocol settings) changed in the list file during the batch. Finish the batch with the settings it began with, then change them", b.Number, begun, run)}
}
