package compliance

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/openings/random"
	"hivearbiter/rules"
)

// Suite is a Protocol with a compliance suite of its own, the one "arbiter check" runs: it
// plays an engine through what the protocol asks of it, compares its answers with the
// referee's, and reports one result per check. A protocol that is neither a Suite nor
// PlayChecked cannot be checked (check.Run says so).
type Suite interface {
	// RunChecks runs the suite on one engine. err is set only when the engine could not be
	// started at all; the results say so too.
	RunChecks(ctx context.Context, e driver.EngineConfig, opts Options) ([]Result, error)
}

// PlayChecked is a Protocol whose players are judged by play alone: they keep no state the
// arbiter could query, so their check is games against the referee. The protocol declares
// the rows of its check; the suite that plays them (check.PlaySuite) sits above the
// protocols, with the arbiter's game loop, as database/sql's conformance suites sit above
// its drivers, so that a protocol links no game loop to be checked.
type PlayChecked interface {
	// PlayRows names the rows of the check of engine e and says what its settings mean.
	PlayRows(e driver.EngineConfig) PlayerRows
}

// Status is how one check came out.
type Status int

// The outcomes of a check, by the one rule of what blocks a match (docs/check.md says it
// too): a row fails (Failed) when a match meets what it checks and the engine would lose games
// by it: the check before game 1 refuses an engine whose start, new game of the run's type or
// first move fails, and a game forfeits it on any other such fault as it shows. A failed row
// makes the check exit with code 5, and the check then prints no match line to paste. A row
// warns (Warned) of a fault that a match never meets (the arbiter never sends an illegal move
// or an unknown command, never undoes) or that costs no game (lines before a move), listed for
// the engine's author. A skipped row was not checked: the engine could not be started for it,
// a row it needs failed ("not checked: needs ..."), or the optional rows' time was spent.
const (
	Failed Status = iota
	Passed
	Skipped
	Warned
)

// String is the status as the check's table shows it: a failure stands out.
func (s Status) String() string {
	switch s {
	case Passed:
		return "pass"
	case Skipped:
		return "skip"
	case Warned:
		return "warn"
	}
	return "FAIL"
}

// Result is the outcome of one compliance check of an engine.
type Result struct {
	Name   string
	Status Status
	Detail string
	// Settings are what the check found a match needs: engine settings (key=value words for
	// -engine, such as fractional=false) and, beginning with "-", flags of the run
	// (-gametype=Base). The row's Detail says why.
	Settings []string
	// Needs names the rows this one needs to have passed (Session.Needs): a row whose
	// prerequisite failed is not checked, rather than concluded from a failure.
	Needs []string `json:",omitempty"`
	// Diagnosis is the ID of the diagnosis (driver.Diagnoses) that explains a failed or warned
	// row, when one does: the rows of one first cause are grouped under it (Causes).
	Diagnosis string `json:",omitempty"`
}

// Options tunes a compliance check. A zero field takes its default.
type Options struct {
	Games  int           // random games played (or compared with the referee's) per suite; 3
	Plies  int           // plies per random game; 30
	Seed   uint64        // seed of the random games and positions
	Margin time.Duration // lateness forgiven on timed answers; 500 ms
	// Searches is how many timed searches measure the engine's overshoot (MarginFor): the
	// moves of its side in each game a UHP check plays for it, from the start; 20.
	Searches int
	// Concurrency is how many of those games are played at once, each by its own engine
	// process, as a run of that -concurrency plays them: its overshoot is measured with the
	// cores as busy as the run makes them; 1.
	Concurrency int
	// StartTimeout bounds each start of the engine (10 s); Grace is how long it has to answer
	// or leave after it is asked to stop (1 s).
	StartTimeout time.Duration
	Grace        time.Duration
	// Quick is a first look: one game, one search of each kind, and the optional rows within
	// QuickOptionalBudget, without the determinism and bench rows.
	Quick bool
	// OptionalBudget bounds the time all optional rows take together (those that only warn:
	// the replies to an unknown command and to options, determinism, bench); a row that
	// finds it spent is not checked. DefaultOptionalBudget, or QuickOptionalBudget when Quick.
	OptionalBudget time.Duration
	// Transcript, if set, receives the conversation with every process of the engine that
	// the check starts, as a match's -transcripts does (protocols that keep one).
	Transcript io.Writer
}

// The optional rows' time budgets: an engine that answers nothing after its banner costs a
// check no more than this in rows that could only warn.
const (
	DefaultOptionalBudget = 20 * time.Second
	// DefaultSearches is Options.Searches when none is given: the engine's moves through the
	// late middle game, where an overshoot that grows with the game has grown.
	DefaultSearches     = 20
	QuickOptionalBudget = 6 * time.Second
)

func (o Options) withDefaults() Options {
	if o.Games <= 0 {
		o.Games = 3
	}
	if o.Plies <= 0 {
		o.Plies = 30
	}
	if o.Margin <= 0 {
		o.Margin = 500 * time.Millisecond
	}
	if o.Quick {
		o.Games, o.Searches = 1, 1
	}
	if o.Searches <= 0 {
		o.Searches = DefaultSearches
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 1
	}
	if o.OptionalBudget <= 0 {
		o.OptionalBudget = DefaultOptionalBudget
		if o.Quick {
			o.OptionalBudget = QuickOptionalBudget
		}
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 10 * time.Second
	}
	if o.Grace <= 0 {
		o.Grace = time.Second
	}
	return o
}

// Engine is what a suite checks: an engine process, a client of one, or a Player.
type Engine interface {
	Close(ctx context.Context) error
}

// Session is the bookkeeping every compliance suite shares: the results so far, the
// random source of its games, and the engine under check, started afresh after a failed check
// so that each result judges one thing and no row repeats an earlier row's failure.
type Session[E Engine] struct {
	ctx     context.Context
	opts    Options
	rng     *rand.Rand
	start   func(context.Context) (E, error)
	eng     E
	running bool
	// fresh is set when the engine must be started again before the next check: a check
	// failed, or left it in a state of its own.
	fresh   bool
	results []Result
	// row is the row the engine was last asked for, for the notes of a transcript; optional
	// is the time the optional rows have taken so far.
	row      string
	optional time.Duration
	// needs are the prerequisites of the row about to be recorded (Needs).
	needs []string
}

// add records a result, with the prerequisites Needs noted for it.
func (s *Session[E]) add(r Result) {
	if r.Needs == nil {
		r.Needs = s.needs
	}
	s.needs = nil
	s.results = append(s.results, r)
}

// DiagnosisOf is the ID of the diagnosis (driver.Diagnoses) that err carries, or "".
func DiagnosisOf(err error) string {
	if d, ok := driver.DiagnosisOf(err); ok {
		return d.ID
	}
	return ""
}

// NewSession sets up a check whose engine start starts (within the start timeout), with
// the options' defaults filled in.
func NewSession[E Engine](ctx context.Context, opts Options, start func(context.Context) (E, error)) *Session[E] {
	opts = opts.withDefaults()
	return &Session[E]{ctx: ctx, opts: opts, rng: rand.New(rand.NewPCG(opts.Seed, 7)), start: start}
}

// Context is the check's context: every call to the engine is bounded by it.
func (s *Session[E]) Context() context.Context { return s.ctx }

// Options are the check's options, defaults filled in.
func (s *Session[E]) Options() Options { return s.opts }

// Rand is the random source of the check's games, seeded by the options.
func (s *Session[E]) Rand() *rand.Rand { return s.rng }

// Results are the results so far, in the order the checks ran.
func (s *Session[E]) Results() []Result { return s.results }

// Pass records a passed check.
func (s *Session[E]) Pass(name, detail string) {
	s.add(Result{Name: name, Status: Passed, Detail: detail})
}

// Fail records a failed check; the engine is started afresh for the next one.
func (s *Session[E]) Fail(name, detail string) { s.FailDiagnosed(name, "", detail) }

// FailDiagnosed is Fail with the ID of the diagnosis that explains the failure ("" for none).
func (s *Session[E]) FailDiagnosed(name, diagnosis, detail string) {
	s.fresh = true
	s.add(Result{Name: name, Status: Failed, Detail: detail, Diagnosis: diagnosis})
}

// Warn records a failed check that does not block a match; the engine is started afresh for
// the next one.
func (s *Session[E]) Warn(name, detail string) { s.WarnDiagnosed(name, "", detail) }

// WarnDiagnosed is Warn with the ID of the diagnosis that explains the warning.
func (s *Session[E]) WarnDiagnosed(name, diagnosis, detail string) {
	s.fresh = true
	s.add(Result{Name: name, Status: Warned, Detail: detail, Diagnosis: diagnosis})
}

// Note records a warning of a row that passed otherwise (lines before an answer, a move in
// another case), without starting the engine afresh: a fault that costs no game.
func (s *Session[E]) Note(name, diagnosis, detail string) {
	s.add(Result{Name: name, Status: Warned, Detail: detail, Diagnosis: diagnosis})
}

// Needs reports whether every row of rows has been checked and did not fail. When one did
// not, the row named is recorded as not checked, naming the first such prerequisite: a row
// is never concluded from a failure. Either way the row's prerequisites are noted in its
// result.
func (s *Session[E]) Needs(name string, rows ...string) bool {
	for _, row := range rows {
		r, ok := s.result(row)
		switch {
		case !ok:
			s.notChecked(name, rows, row, "which did not run")
			return false
		case r.Status == Failed:
			s.notChecked(name, rows, row, "which failed")
			return false
		case r.Status == Skipped:
			s.notChecked(name, rows, row, "which was not checked")
			return false
		}
	}
	s.needs = rows
	return true
}

// NotChecked is the start of the detail of a row whose prerequisite did not pass.
const NotChecked = "not checked: needs "

func (s *Session[E]) notChecked(name string, rows []string, row, why string) {
	s.add(Result{Name: name, Status: Skipped, Detail: NotChecked + row + " (" + why + ")", Needs: rows})
}

// result is the last result of the row named.
func (s *Session[E]) result(name string) (Result, bool) {
	for i := len(s.results) - 1; i >= 0; i-- {
		if s.results[i].Name == name {
			return s.results[i], true
		}
	}
	return Result{}, false
}

// Optional runs the optional row named, a row that can only warn, within what is left of the
// optional rows' budget: check is given the time it may take, and when the budget is spent the
// row is not checked.
func (s *Session[E]) Optional(name string, check func(budget time.Duration)) {
	left := s.opts.OptionalBudget - s.optional
	if left <= 0 {
		s.Skip(name, fmt.Sprintf("not checked: the optional rows' time budget of %v is spent", s.opts.OptionalBudget))
		return
	}
	began := time.Now()
	check(left)
	s.optional += time.Since(began)
}

// Row is the row the engine was last asked for: a protocol's start notes it in a transcript.
func (s *Session[E]) Row() string { return s.row }

// Advise records a passed check that found what a match needs: settings, and why.
func (s *Session[E]) Advise(name, detail string, settings ...string) {
	s.add(Result{Name: name, Status: Passed, Detail: detail, Settings: settings})
}

// Skip records a check that could not be run, and why.
func (s *Session[E]) Skip(name, why string) {
	if !strings.HasPrefix(why, "not checked") {
		why = "skipped: " + why
	}
	s.add(Result{Name: name, Status: Skipped, Detail: why})
}

// Run runs checks in turn, until the check's context ends, and returns the results.
func (s *Session[E]) Run(checks ...func()) []Result {
	for _, check := range checks {
		if s.ctx.Err() != nil {
			break
		}
		check()
	}
	return s.results
}

// Restart has the engine started afresh before the next check: the last one left it in a
// state of its own.
func (s *Session[E]) Restart() { s.fresh = true }

// Begin starts the engine for the first check, which is named. When it cannot be started,
// that check fails with the reason, every other check is skipped, and the error is returned:
// the suite ends there.
func (s *Session[E]) Begin(name string) (E, error) {
	s.row = name
	if err := s.restart(); err != nil {
		s.FailDiagnosed(name, DiagnosisOf(err), err.Error())
		s.Skip("every other check", "the engine did not start")
		var none E
		return none, err
	}
	return s.eng, nil
}

// Engine returns a running engine for the check named, started afresh after a failure. When
// it cannot be started, the check is skipped, and ok is false.
func (s *Session[E]) Engine(name string) (eng E, ok bool) {
	s.row = name
	if s.fresh || !s.running {
		if err := s.restart(); err != nil {
			s.Skip(name, "the engine could not be started again: "+err.Error())
			return eng, false
		}
	}
	return s.eng, true
}

func (s *Session[E]) restart() error {
	s.Close()
	ctx, cancel := context.WithTimeout(s.ctx, s.opts.StartTimeout)
	defer cancel()
	eng, err := s.start(ctx)
	if err != nil {
		return err
	}
	s.eng, s.running, s.fresh = eng, true, false
	return nil
}

// Close ends the engine, if one runs. It returns what the engine's Close says.
func (s *Session[E]) Close() error {
	if !s.running {
		return nil
	}
	s.running = false
	return s.eng.Close(context.WithoutCancel(s.ctx))
}

// CheckClose is the check named for the end of a session: the engine, told its input ended,
// must leave within the grace period rather than be killed.
func (s *Session[E]) CheckClose(name string) {
	if _, ok := s.Engine(name); !ok {
		return
	}
	began := time.Now()
	err := s.Close()
	took := time.Since(began)
	switch {
	case err != nil:
		s.Fail(name, err.Error())
	case took >= s.opts.Grace:
		s.Fail(name, fmt.Sprintf("it was still running %v after it was told to stop, and was killed", s.opts.Grace))
	default:
		s.Pass(name, fmt.Sprintf("it left in %d ms", took.Milliseconds()))
	}
}

// Position is a random position of game type t, plies into a game that is not over, drawn as
// a run's random openings are (package openings/random).
func (s *Session[E]) Position(t rules.GameType, plies int) *rules.Game {
	g := rules.NewGame(t)
	random.Opening(g, plies, s.rng)
	return g
}

// PlayerRows names the rows of a suite that checks a Player by play alone (PlayChecked) and
// says what its settings mean.
type PlayerRows struct {
	Settings       string // the row that judges the engine's settings with the protocol's Validate
	SettingsDetail string // what the settings mean, when they pass
	Greeting       string // the row that judges the start: the player's greeting or handshake
	Close          string // the row that judges the end of the session
}
