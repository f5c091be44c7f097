package compliance

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"hivearbiter/rules"
)

// The determinism probe asks searches of this depth, three in each of up to this many
// positions, for at most this long: nokamute answered one position in about twelve otherwise
// from search to search, so one position says little.
const (
	DeterminismDepth     = 3
	determinismPositions = 16
	determinismBudget    = 10 * time.Second
	// determinismTimeout bounds one search of the probe.
	determinismTimeout = 5 * time.Second
)

// DeterminismCheck is the name of the determinism probe's row.
var DeterminismCheck = fmt.Sprintf("same answer to the same search (depth %d)", DeterminismDepth)

// CheckDeterminism records the check DeterminismCheck: a fixed-depth search asked three times
// in each of several random positions of game type t, twice in one process and once more in
// a fresh one. search starts a new game at the position on the engine (as the protocol starts
// one: UHP's newgame, UGI's uginewgame and position), searches it to depth, and returns the
// move in the referee's notation. An engine whose answers to one position differ is warned
// of, not failed: it plays, but no run of a match can be played again alike, a change that
// does nothing plays no mirror pairs, and a gate of it costs as one on a clock
// (docs/statistics.md). listed are its options, for what may fix it.
func (s *Session[E]) CheckDeterminism(t rules.GameType, listed []ListedOption,
	search func(ctx context.Context, eng E, position *rules.Game, depth int) (string, error)) {
	name := DeterminismCheck
	if s.opts.Quick {
		s.Skip(name, "not checked: -quick (a first look) leaves it out")
		return
	}
	// An optional row: it warns at most, and takes its time from the optional rows' budget.
	s.Optional(name, func(left time.Duration) { s.checkDeterminism(t, listed, search, min(determinismBudget, left)) })
}

func (s *Session[E]) checkDeterminism(t rules.GameType, listed []ListedOption,
	search func(ctx context.Context, eng E, position *rules.Game, depth int) (string, error), budget time.Duration) {
	name := DeterminismCheck
	var positions []*rules.Game
	answers := map[int][]string{}
	ask := func(i int) bool {
		eng, ok := s.Engine(name)
		if !ok {
			return false
		}
		ctx, cancel := context.WithTimeout(s.ctx, min(determinismTimeout, budget))
		move, err := search(ctx, eng, positions[i], DeterminismDepth)
		cancel()
		if err != nil {
			s.Restart()
			s.Skip(name, fmt.Sprintf("a search of depth %d in %s did not answer a legal move within %v: %v",
				DeterminismDepth, positions[i].GameString(), min(determinismTimeout, budget), err))
			return false
		}
		answers[i] = append(answers[i], move)
		return true
	}
	began := time.Now()
	for i := 0; i < determinismPositions && (i < 2 || time.Since(began) < budget); i++ {
		positions = append(positions, s.Position(t, 6+i%12))
		if !ask(i) || !ask(i) {
			return
		}
	}
	s.Restart()
	for i := range positions {
		if !ask(i) {
			return
		}
	}
	var differ []int
	for i := range positions {
		if len(slices.Compact(slices.Sorted(slices.Values(answers[i])))) > 1 {
			differ = append(differ, i)
		}
	}
	if len(differ) == 0 {
		s.Pass(name, fmt.Sprintf("the same answer each time in %d positions, 3 searches each (a new game before each, the engine restarted before the third)", len(positions)))
		return
	}
	first := differ[0]
	s.Warn(name, fmt.Sprintf("answers differed in %d of %d positions, 3 searches each (a new game before each, the engine restarted before the third): it answered %s in %s. "+
		"It is not deterministic: no run of a match can be played again alike, a change that does nothing plays no mirror pairs, and a gate of it at a fixed depth "+
		"needs about four times the game pairs (as a gate on a clock: docs/statistics.md). %s",
		len(differ), len(positions), strings.Join(answers[first], ", "), positions[first].GameString(), determinismFix(listed)))
}

// determinismFix says what may make an engine deterministic, from the options it lists: a
// seed option, or one search thread.
func determinismFix(listed []ListedOption) string {
	var fixes, single []string
	for _, o := range listed {
		lower := strings.ToLower(o.Name)
		fair, _, ok := FairOption(o.Name, o.Type, o.Value, o.Choices)
		switch {
		case strings.Contains(lower, "seed"):
			fixes = append(fixes, fmt.Sprintf("a fixed option.%s", o.Name))
		case ok && strings.Contains(lower, "thread") && fair != o.Value:
			fixes = append(fixes, fmt.Sprintf("option.%s=%s (it has %s)", o.Name, fair, o.Value))
		case ok && strings.Contains(lower, "thread"):
			single = append(single, fmt.Sprintf("option.%s=%s", o.Name, o.Value))
		}
	}
	switch {
	case len(fixes) > 0:
		return "Try " + strings.Join(fixes, " or ") + ", and check again with it; failing that, its author can seed its random choices."
	case len(single) > 0:
		return "It searches on one thread already (" + strings.Join(single, ", ") + ") and lists no seed option: its author can seed its random choices, or make none."
	}
	return "It lists no seed or thread option: its author can seed its random choices, or make none."
}
