package distributed

import (
	"fmt"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// RejectedError is a result the coordinator refuses to count: the record contradicts the
// schedule, the run's engines or the referee.
type RejectedError struct {
	Worker string
	Game   int
	Reason string
	// WrongEngine marks a record whose engine says it is another than the run's: the worker
	// that sent it has another build, and every game it plays of the run will be refused.
	WrongEngine bool
	// quarantine marks a result refused because its worker is quarantined, not for itself.
	quarantine bool
}

// Error names the game, the worker and why its result was rejected.
func (e *RejectedError) Error() string {
	return fmt.Sprintf("distributed: result for game %d from worker %q rejected: %s", e.Game, e.Worker, e.Reason)
}

// referee checks workers' records against the run: the schedule says which game a record must
// be, the run's settings which engines play it and how, and the rules whether its moves and its
// ending are what happened.
type referee struct {
	spec     *RunSpec
	schedule *arbiter.Schedule
}

// check returns nil for a record the run can count, or why it cannot.
func (f *referee) check(worker string, res *Result) error {
	r := res.Record
	if r == nil {
		return &RejectedError{Worker: worker, Game: -1, Reason: "no record"}
	}
	reject := rejecter(worker, r)
	if err := sameEngines(f.spec.Expect, res.Engines); err != nil {
		return reject("%v", err)
	}
	if r.Game < 0 || r.Game >= f.schedule.Len() {
		return reject("game index %d is outside the schedule (0 to %d)", r.Game, f.schedule.Len()-1)
	}
	return CheckGame(f.spec, worker, f.schedule.Game(r.Game), r)
}

// rejecter makes the *RejectedErrors of a worker's record.
func rejecter(worker string, r *results.Record) func(format string, args ...any) error {
	return func(format string, args ...any) error {
		return &RejectedError{Worker: worker, Game: r.Game, Reason: fmt.Sprintf(format, args...)}
	}
}

// CheckGame is the referee's check of a worker's record of the game sg of the run spec: the
// run, the game, its round, pair and opening, the seed, the game type, each side's engine,
// time control (or depth limit) and identity are the run's, and its moves and ending are what
// the rules and the run's adjudication (its move limit) give. A coordinator checks each
// result of a match with it, a pool's server each game of a tune's pair. A *RejectedError says
// why the record cannot count; its WrongEngine is set when a side's engine is not the run's.
func CheckGame(spec *RunSpec, worker string, sg arbiter.ScheduledGame, r *results.Record) error {
	if r == nil {
		return &RejectedError{Worker: worker, Game: sg.Index, Reason: "no record"}
	}
	reject := rejecter(worker, r)
	if r.Run != spec.Run {
		return reject("it belongs to run %s, not %s", r.Run, spec.Run)
	}
	if r.Schema != results.SchemaVersion {
		return reject("record schema %d, want %d", r.Schema, results.SchemaVersion)
	}
	if r.Game != sg.Index || r.Round != sg.Round || r.Pair != sg.Pair || r.Opening != sg.Opening || r.OpeningIndex != sg.OpeningIndex {
		return reject("round, pair or opening differ from those of game %d in the schedule", sg.Index+1)
	}
	if r.Seed != spec.Seed {
		return reject("seed %d, the run's is %d", r.Seed, spec.Seed)
	}
	if want, err := rules.ParseGameType(spec.GameType); err == nil && spec.GameType != "" && r.GameType != want.String() {
		return reject("game type %q, the run's is %q", r.GameType, want)
	}
	for side, e := range [2]int{sg.White, sg.Black} {
		if e < 0 || e >= len(spec.Engines) || e >= len(spec.Expect) {
			return reject("the schedule's engine %d is not one of the run's %d", e, len(spec.Engines))
		}
		p, want, id := r.White, spec.Engines[e], spec.Expect[e].ID
		if side == 1 {
			p = r.Black
		}
		if p.Name != want.Name {
			return reject("%s is %q, the schedule says %q", rules.Color(side).String(), p.Name, want.Name)
		}
		if tc := want.Time.String(); p.Time != tc && !want.Time.IsZero() {
			return reject("%s played at %q, the run's time control is %q", rules.Color(side).String(), p.Time, tc)
		}
		if p.ID != id && !spec.forfeit(r, rules.Color(side), p) {
			err := reject("%s's engine says %q, the run's says %q", rules.Color(side).String(), p.ID, id)
			err.(*RejectedError).WrongEngine = true
			return err
		}
	}
	return replay(r, spec.Adjudication, reject)
}

// replay checks a record's moves and ending with the referee (arbiter.Replay).
func replay(r *results.Record, adj arbiter.Adjudication, reject func(string, ...any) error) error {
	if err := arbiter.Replay(r, adj); err != nil {
		return reject("%s", driver.Message(err))
	}
	return nil
}

// sameEngines compares a worker's engines with the run's, by name.
func sameEngines(want, got []EngineIdentity) error {
	have := make(map[string]EngineIdentity, len(got))
	for _, e := range got {
		have[e.Name] = e
	}
	var diffs []string
	for _, w := range want {
		g, ok := have[w.Name]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("it has no engine %q", w.Name))
		case g.ID != w.ID:
			diffs = append(diffs, fmt.Sprintf("its %s says %q, the run's says %q", w.Name, g.ID, w.ID))
		case w.SHA256 != "" && g.SHA256 != w.SHA256: // "": the run does not check the program (an artifact's hash does)
			diffs = append(diffs, fmt.Sprintf("its %s is another build (SHA-256 %.12s, the run's %.12s)", w.Name, g.SHA256, w.SHA256))
		}
	}
	if len(diffs) > 0 {
		return fmt.Errorf("engines differ from the run's: %s", strings.Join(diffs, "; "))
	}
	return nil
}

// forfeit reports whether a side's player is an engine broken on its worker under the forfeit
// policy: never started, so it has no id, and it lost the game by its crash (arbiter.Forfeits).
func (spec *RunSpec) forfeit(r *results.Record, side rules.Color, p results.Player) bool {
	return spec.OnEngineFailure == arbiter.ForfeitOnFailure && p.ID == "" &&
		r.Culprit == side.String() && r.Reason == results.ReasonCrash
}
