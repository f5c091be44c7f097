package arbiter

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"hivearbiter/results"
	"hivearbiter/rules"
)

func mustGame(t *testing.T, gs string) *rules.Game {
	t.Helper()
	g, err := rules.ParseGameString(gs)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A GameString with an empty move entry (a trailing ";") is malformed output, not a game that
// differs from the referee's.
func TestMirrorTrailingSemicolonIsMalformed(t *testing.T) {
	ref := mustGame(t, "Base;InProgress;White[2];wS1;bS1 wS1-")
	verified := &mirror{}
	if d := verified.verify("Base;InProgress;Black[1];wS1", mustGame(t, "Base;InProgress;Black[1];wS1"), false); d != nil {
		t.Fatal(d)
	}
	for _, m := range []*mirror{{}, verified} {
		d := m.verify(ref.GameString()+";", ref, false)
		if d == nil || d.reason != results.ReasonProtocol || !strings.Contains(d.detail, "malformed GameString") || strings.Contains(d.detail, "rules:") {
			t.Errorf("got %+v; want a malformed GameString", d)
		}
	}
}

// nokamute and Hivemind claim a draw by threefold repetition, which Mzinga's rules have not:
// the detail says so, and how the arbiter can adjudicate such games.
func TestMirrorFalseRepetitionClaimIsExplained(t *testing.T) {
	const moves = `wS1;bB1 wS1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-;wQ \wS1;bQ bB1\;wQ -wS1;bQ bB1-;wQ \wS1;bQ bB1\`
	ref := mustGame(t, "Base;InProgress;White[7];"+moves)
	var m mirror
	d := m.verify("Base;Draw;White[7];"+moves, ref, false)
	if d == nil || d.reason != results.ReasonFalseClaim {
		t.Fatalf("got %+v; want a false claim", d)
	}
	for _, want := range []string{"occurred 3 times", "-repetitions 3"} {
		if !strings.Contains(d.detail, want) {
			t.Errorf("%q does not say %s", d.detail, want)
		}
	}
}

// The mirror looks only at the entries a GameString adds to the last one it verified, and skips
// the replay of an entry that is the referee's own MoveString: every way a player's game can
// part from the referee's is still caught, however long the game, and a game merely spelled
// otherwise is still accepted.
func TestMirrorIncrementalCatchesEveryDesync(t *testing.T) {
	const plies = 30
	play := func(g *rules.Game, pick func([]rules.Move) rules.Move) {
		if err := g.PlayMove(pick(g.ValidMoves())); err != nil || g.State() != rules.InProgress {
			t.Fatalf("%v, %s", err, g.GameString())
		}
	}
	// The referee plays a move from the middle of the valid list; "another move" the last one.
	middle := func(ms []rules.Move) rules.Move { return ms[len(ms)*3/7] }
	last := func(ms []rules.Move) rules.Move { return ms[len(ms)-1] }
	// spell writes g's last move otherwise, with another reference piece, if there is one.
	alternatives := 0
	spell := func(g *rules.Game) string {
		before := g.Clone()
		before.Undo(1)
		mv := g.PlayedMove(g.Ply() - 1)
		m, _ := before.ParseMove(mv)
		for i := range g.Ply() - 1 {
			for _, form := range []string{"%s-", "-%s", "%s/", "/%s", `%s\`, `\%s`} {
				alt := strings.Fields(mv)[0] + " " + fmt.Sprintf(form, strings.Fields(g.PlayedMove(i))[0])
				if m2, err := before.ParseMove(alt); err == nil && m2 == m && alt != mv {
					alternatives++
					return alt
				}
			}
		}
		return mv
	}
	header := func(g *rules.Game) string {
		return strings.Join([]string{g.GameType().String(), g.State().String(), g.TurnString()}, ";")
	}
	cases := []struct {
		name string
		// report is what the player says after the referee's last ply: entries are the ones it
		// reported before, previous the referee's game before that ply.
		report func(ref, previous *rules.Game, entries []string) string
		want   results.Reason // "" accepts
	}{
		{"echo", func(ref, _ *rules.Game, entries []string) string {
			return strings.Join(append([]string{header(ref)}, append(entries, ref.PlayedMove(plies))...), ";")
		}, ""},
		{"the last move respelled", func(ref, _ *rules.Game, entries []string) string {
			return strings.Join(append([]string{header(ref)}, append(entries, spell(ref))...), ";")
		}, ""},
		{"the referee's spelling", func(ref, _ *rules.Game, _ []string) string { return ref.GameString() }, ""},
		{"a move ahead", func(ref, _ *rules.Game, _ []string) string {
			ahead := ref.Clone()
			play(ahead, middle)
			return ahead.GameString()
		}, results.ReasonDesync},
		{"the move not played", func(_, previous *rules.Game, entries []string) string {
			return strings.Join(append([]string{header(previous)}, entries...), ";")
		}, results.ReasonDesync},
		{"another move", func(_, previous *rules.Game, entries []string) string {
			other := previous.Clone()
			play(other, last)
			return strings.Join(append([]string{header(other)}, append(entries, other.PlayedMove(plies))...), ";")
		}, results.ReasonDesync},
		{"an earlier move changed", func(ref, _ *rules.Game, entries []string) string {
			changed := append(slices.Clone(entries), ref.PlayedMove(plies))
			changed[plies/2] = changed[plies/2+2] // the same text at another ply: another game
			return strings.Join(append([]string{header(ref)}, changed...), ";")
		}, results.ReasonDesync},
		{"trailing semicolon", func(ref, _ *rules.Game, _ []string) string { return ref.GameString() + ";" }, results.ReasonProtocol},
		// The turn is taken from the moves, as Mzinga takes it, but a report must still
		// write it well: a whole GameString's replay refuses these.
		{"a turn string without a number", func(ref, _ *rules.Game, entries []string) string {
			return strings.Join(append([]string{ref.GameType().String(), ref.State().String(), "White[]"}, append(entries, ref.PlayedMove(plies))...), ";")
		}, results.ReasonDesync},
		{"a turn string of no colour", func(ref, _ *rules.Game, entries []string) string {
			return strings.Join(append([]string{ref.GameType().String(), ref.State().String(), "Red[16]"}, append(entries, ref.PlayedMove(plies))...), ";")
		}, results.ReasonDesync},
		{"a turn string of turn 0", func(ref, _ *rules.Game, entries []string) string {
			return strings.Join(append([]string{ref.GameType().String(), ref.State().String(), "Black[0]"}, append(entries, ref.PlayedMove(plies))...), ";")
		}, results.ReasonDesync},
	}
	for _, tc := range cases {
		for _, respell := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/respelled-before=%v", tc.name, respell), func(t *testing.T) {
				ref := rules.NewGame(rules.Base)
				var m mirror
				var entries []string
				for range plies {
					play(ref, middle)
					mv := ref.PlayedMove(ref.Ply() - 1)
					if respell {
						mv = spell(ref)
					}
					entries = append(entries, mv)
					gs := strings.Join(append([]string{header(ref)}, entries...), ";")
					if d := m.verify(gs, ref, false); d != nil {
						t.Fatalf("ply %d: %q: %+v", ref.Ply(), gs, d)
					}
				}
				previous := ref.Clone()
				play(ref, middle)
				d := m.verify(tc.report(ref, previous, entries), ref, false)
				switch {
				case tc.want == "" && d != nil:
					t.Fatalf("got %+v; want it accepted", d)
				case tc.want != "" && (d == nil || d.reason != tc.want || d.warning):
					t.Fatalf("got %+v; want %s", d, tc.want)
				}
			})
		}
	}
	if alternatives < plies {
		t.Errorf("only %d moves were respelled: the test hardly tries the replay", alternatives)
	}
}
