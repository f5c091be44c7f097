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
	"hivearbiter/arbiter/check"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
	"hivearbiter/console"
	"hivearbiter/results"
)

// Runner plays a list's batches until every entrant is done, resuming where the records stop.
type Runner struct {
	List *List
	// Console receives what the runner does; nil discards it.
	Console io.Writer
	// Check enters an entrant: arbiter check under the list's conditions (CheckEntrant unless
	// replaced). Its report is kept under List.Checks and published. An entrant that fails
	// it, or then fails to start and play a first move under the list's conditions (its game
	// type and limit, as its first game would start it), is refused before its first game:
	// the list goes on without it.
	Check func(ctx context.Context, e Entrant) (report string, err error)
	// Play plays one batch's tournament: on this machine (PlayLocally) unless replaced, say by
	// a pool.
	Play func(ctx context.Context, cfg arbiter.Config) (*arbiter.Outcome, error)
	// Played is called after each batch, with the records so far (to rewrite the site).
	Played func(recs []results.Record) error
	// MaxBatches stops the run after this many batches (0: none).
	MaxBatches int
	// Recheck enters again, once in this run, the entrants refused before whose programs are
	// unchanged (one whose program changed is entered again anyway): the user says the
	// fault was outside the program.
	Recheck bool

	refused []*RefusedError
}

// RefusedError is an entrant that cannot play under the list's conditions: its check failed,
// or it could not be started or play a game of the list's type.
type RefusedError struct {
	Entrant string
	Reason  string
	Report  string // where its check report is kept
}

// Error is the Message after the package's name.
func (e *RefusedError) Error() string { return "ratinglist: " + e.Message() }

// Message is the error without the package's name.
func (e *RefusedError) Message() string {
	return fmt.Sprintf("entrant %s is refused: %s (its check report: %s). Fix it and enter it again, or take it off the list", e.Entrant, e.Reason, e.Report)
}

// RefusalsError names the entrants of a list that are refused: what a run that went on
// without them ends with.
type RefusalsError struct {
	Refused []*RefusedError // in the list's order
}

// Error is the Message after the package's name.
func (e *RefusalsError) Error() string { return "ratinglist: " + e.Message() }

// Message is the error without the package's name.
func (e *RefusalsError) Message() string {
	if len(e.Refused) == 1 {
		return e.Refused[0].Message()
	}
	lines := make([]string, len(e.Refused))
	for i, r := range e.Refused {
		lines[i] = fmt.Sprintf("  %s: %s (its check report: %s)", r.Entrant, r.Reason, r.Report)
	}
	return fmt.Sprintf("%d entrants are refused:\n%s\nFix them and enter them again, or take them off the list", len(e.Refused), strings.Join(lines, "\n"))
}

// Refused returns the entrants refused when the last Run ended, a *RefusalsError, or nil if
// none is: those it refused and those refused before whose programs are unchanged. The
// entrants after them played their gauntlets; a refused one plays when it is entered again.
func (r *Runner) Refused() error {
	if len(r.refused) == 0 {
		return nil
	}
	return &RefusalsError{r.refused}
}

// Run plays the list's batches until every entrant is done, ctx is cancelled or MaxBatches
// batches were played. It returns the records at the end. An entrant refused does not stop
// it: Refused says which are, after it.
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
	recheck := r.Recheck
	r.refused = nil
	for batches := 0; ; {
		recs, err := ReadRecords(l.Records)
		if err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return recs, err
		}
		b, ok, err := Next(l, recs)
		if err != nil {
			return recs, err
		}
		if recheck && !b.Resumed {
			// Between batches, so that a batch begun is resumed as it began.
			recheck = false
			if n, err := r.forgetRefusals(say); err != nil || n > 0 {
				if err != nil {
					return recs, err
				}
				continue
			}
		}
		if !ok || (r.MaxBatches > 0 && batches >= r.MaxBatches) {
			return recs, r.keepRefusals(recs)
		}
		cfg := l.Config(b)
		refused, err := r.enterAll(ctx, b, cfg, recs, check, say)
		if err != nil {
			return recs, err
		}
		if refused {
			continue // the batch is planned again without the entrant refused
		}
		if err := sameRun(cfg, b, recs); err != nil {
			return recs, err
		}
		say("%s\n", b.Describe(l))
		out, err := play(ctx, cfg)
		if err != nil && ctx.Err() == nil {
			if refused, rerr := r.refuseUnstarted(b, err, say); rerr != nil || refused {
				if rerr != nil {
					return recs, rerr
				}
				continue
			}
		}
		if err != nil {
			return recs, err
		}
		batches++
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

// enterAll enters the entrants of a batch that have not entered yet; refused says that one
// was refused, and the batch is not to be played as it is.
func (r *Runner) enterAll(ctx context.Context, b Batch, cfg arbiter.Config, recs []results.Record, check func(context.Context, Entrant) (string, error), say func(string, ...any)) (refused bool, err error) {
	var t *arbiter.Tournament // the batch, whose first games an entrant is tried as
	for k, e := range append([]int{b.Entrant}, b.Opponents...) {
		entrant := r.List.Entrants[e]
		if _, err := os.Stat(r.List.CheckReport(entrant)); err == nil {
			continue
		}
		if t == nil {
			if t, err = arbiter.NewTournament(cfg, arbiter.TournamentOptions{}); err != nil {
				return false, err
			}
		}
		say("Checking %s under the list's conditions\n", entrant.Player())
		report, reason, err := r.enter(ctx, entrant, check, func(ctx context.Context) error { return t.Preflight(ctx, []int{k}) })
		switch {
		case err != nil:
			return false, err
		case reason == "":
			continue
		case played(recs, entrant.Player()):
			// It has games: it was let in before, and its check report is gone. A list
			// cannot take back games played, so it stops here, as the entrant's faults
			// would stop it.
			failed := r.List.failedReport(entrant)
			if err := os.WriteFile(failed, []byte(report), 0o644); err != nil {
				return false, fmt.Errorf("ratinglist: %w", err)
			}
			return false, &RefusedError{Entrant: entrant.Player(), Reason: reason, Report: failed}
		}
		refusal, err := r.List.Refuse(entrant, reason, report)
		if err != nil {
			return false, err
		}
		say("%s is refused: %s (its check report: %s); the list goes on without it\n", refusal.Entrant, refusal.Reason, refusal.Report)
		return true, nil
	}
	return false, nil
}

// enter checks an entrant and tries it as its first game would start it, keeping the report
// of one that passes both; reason says why one that does not is refused, report is its report.
func (r *Runner) enter(ctx context.Context, e Entrant, check func(context.Context, Entrant) (string, error), try func(context.Context) error) (report, reason string, err error) {
	report, cerr := check(ctx, e)
	if ctx.Err() != nil {
		return "", "", ctx.Err()
	}
	if cerr == nil {
		if terr := try(ctx); terr != nil {
			if ctx.Err() != nil {
				return "", "", ctx.Err()
			}
			reason = fmt.Sprintf("it cannot play under the list's conditions (%s, %s): %s", r.List.GameType, strings.Join(r.List.Limit, " "), unstarted(terr))
			report += "\nTried as its first game of the list would start it, " + reason + ".\n"
		}
	}
	if err := os.MkdirAll(r.List.Checks, 0o755); err != nil {
		return "", "", fmt.Errorf("ratinglist: %w", err)
	}
	if reason != "" {
		return report, reason, nil
	}
	if cerr != nil {
		return report, "arbiter check failed: " + driver.Message(cerr), nil
	}
	if err := os.WriteFile(r.List.CheckReport(e), []byte(report), 0o644); err != nil {
		return "", "", fmt.Errorf("ratinglist: %w", err)
	}
	return report, "", r.List.admit(e)
}

// unstarted is why an engine could not start as a game would start it: the failure without
// the engine's name, which the refusal says.
func unstarted(err error) string {
	var se *arbiter.EngineStartError
	if errors.As(err, &se) {
		return driver.Message(se.Err)
	}
	return driver.Message(err)
}

// refuseUnstarted refuses the entrants without a game that a batch could not start (they
// passed their check, and then failed the batch's start: a check report kept by an older
// arbiter, or a fault that comes and goes); refused says whether it refused one. An engine
// with games that fails so is the run's error, as before.
func (r *Runner) refuseUnstarted(b Batch, err error, say func(string, ...any)) (refused bool, _ error) {
	var starts []*arbiter.EngineStartError
	var pf *arbiter.PreflightError
	var se *arbiter.EngineStartError
	switch {
	case errors.As(err, &pf):
		starts = pf.Failures
	case errors.As(err, &se):
		starts = []*arbiter.EngineStartError{se}
	default:
		return false, nil
	}
	l := r.List
	recs, rerr := ReadRecords(l.Records) // with the batch's games, if it played some
	if rerr != nil {
		return false, rerr
	}
	for _, f := range starts {
		var entrant *Entrant
		for _, e := range append([]int{b.Entrant}, b.Opponents...) {
			if l.Entrants[e].Engine.Name == f.Engine {
				entrant = &l.Entrants[e]
			}
		}
		if entrant == nil || played(recs, entrant.Player()) {
			return false, nil
		}
	}
	for _, f := range starts {
		for _, e := range append([]int{b.Entrant}, b.Opponents...) {
			entrant := l.Entrants[e]
			if entrant.Engine.Name != f.Engine {
				continue
			}
			report, _ := os.ReadFile(l.CheckReport(entrant))
			reason := fmt.Sprintf("it could not be started for the list's games (%s, %s): %s", l.GameType, strings.Join(l.Limit, " "), driver.Message(f.Err))
			refusal, err := l.Refuse(entrant, reason, string(report)+"\nIts first batch could not start it: "+driver.Message(f.Err)+"\n")
			if err != nil {
				return false, err
			}
			say("%s is refused: %s (its check report: %s); the list goes on without it\n", refusal.Entrant, refusal.Reason, refusal.Report)
		}
	}
	return true, nil
}

// played reports whether a player has a game in the records.
func played(recs []results.Record, player string) bool {
	for i := range recs {
		if recs[i].White.Name == player || recs[i].Black.Name == player {
			return true
		}
	}
	return false
}

// forgetRefusals forgets the refusals that hold, so that their entrants are entered again;
// n counts them.
func (r *Runner) forgetRefusals(say func(string, ...any)) (n int, err error) {
	refusals, err := r.List.Refusals()
	if err != nil {
		return 0, err
	}
	for _, e := range r.List.Entrants {
		if _, ok := refusals[e.Player()]; ok {
			say("%s, refused before, is entered again\n", e.Player())
			if err := r.List.admit(e); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// keepRefusals notes the entrants refused at the end of a run, for Refused.
func (r *Runner) keepRefusals(recs []results.Record) error {
	refusals, err := r.List.Refusals()
	if err != nil {
		return err
	}
	r.refused = nil
	for _, e := range r.List.Entrants {
		if ref, ok := refusals[e.Player()]; ok && !played(recs, e.Player()) {
			r.refused = append(r.refused, ref.err())
		}
	}
	return nil
}

// CheckReport is where an entrant's check report is kept.
func (l *List) CheckReport(e Entrant) string {
	return filepath.Join(l.Checks, cmp.Or(Slug(e.Player()), "entrant")+".txt")
}

// CheckReports reads the kept check reports, by entrant: the report of the check it passed, or
// of the one that refused it.
func (l *List) CheckReports() map[string]string {
	out := map[string]string{}
	refusals, _ := l.Refusals()
	for _, e := range l.Entrants {
		path := l.CheckReport(e)
		if _, ok := refusals[e.Player()]; ok {
			path = l.failedReport(e)
		}
		if b, err := os.ReadFile(path); err == nil {
			out[e.Player()] = string(b)
		}
	}
	return out
}

// CheckEntrant runs arbiter check's suite on an entrant under the list's conditions and
// returns its report; an error when a check failed that would cost it games.
func CheckEntrant(ctx context.Context, e Entrant) (string, error) {
	checks, err := check.Run(ctx, e.Engine, compliance.Options{Games: 2, Plies: 20, Seed: 1})
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

// PlayLocally plays a batch on this machine's engines, printing its games to w (a console).
func PlayLocally(w io.Writer) func(ctx context.Context, cfg arbiter.Config) (*arbiter.Outcome, error) {
	return func(ctx context.Context, cfg arbiter.Config) (*arbiter.Outcome, error) {
		t, err := arbiter.NewTournament(cfg, arbiter.TournamentOptions{Observers: []arbiter.Observer{console.New(w, console.Options{})}})
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
