package uhpclient

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestReplyError(t *testing.T) {
	for _, tc := range []struct {
		name, command string
		lines         []string
		kind          string // "", "err" or "invalidmove"
		move, message string
	}{
		{"move list", "validmoves", []string{"wS1;wB1"}, "", "", ""},
		{"a word that starts like err", "options", []string{"errands;bool;True;True"}, "", "", ""},
		{"err", "undo 5", []string{"err Unable to undo 5 moves."}, "err", "", "Unable to undo 5 moves."},
		{"bare err", "foo", []string{"err"}, "err", "", ""},
		{"Mzinga on mono", "newgame Foo", []string{"err Couldn't parse expansion pieces.", "Parameter name: boardString"},
			"err", "", "Couldn't parse expansion pieces. Parameter name: boardString"},
		{"two err lines", "foo", []string{"err A.", "err B."}, "err", "", "A. B."},
		{"err after output", "bestmove depth 1", []string{"wS1;1;0;wS1", "err EngineError(\"x\")"}, "err", "", `EngineError("x")`},
		{"invalidmove", "play wQ", []string{"invalidmove You can't play your Queen Bee on your first turn."},
			"invalidmove", "wQ", "You can't play your Queen Bee on your first turn."},
		{"nokamute's empty move", "play ", []string{"invalidmove "}, "invalidmove", "", ""},
		{"invalidmove in a GameString", "newgame Base;InProgress;White[2];zz", []string{"invalidmove zz"},
			"invalidmove", "newgame Base;InProgress;White[2];zz", "zz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := replyError("e", tc.command, tc.lines)
			var engErr *EngineError
			var invalid *InvalidMoveError
			switch {
			case tc.kind == "" && err != nil:
				t.Errorf("got %v", err)
			case tc.kind == "err" && (!errors.As(err, &engErr) || engErr.Message != tc.message || engErr.Command != tc.command):
				t.Errorf("got %v; want err %q", err, tc.message)
			case tc.kind == "invalidmove" && (!errors.As(err, &invalid) || invalid.Message != tc.message || invalid.Move != tc.move):
				t.Errorf("got %#v; want invalidmove of %q: %q", err, tc.move, tc.message)
			}
		})
	}
}

func TestParseInfoAndSupports(t *testing.T) {
	for _, tc := range []struct {
		name      string
		lines     []string
		id        string
		supported []string
		not       []string
	}{
		{"all three", []string{"id Mzinga v0.9.19309", "Mosquito;Ladybug;Pillbug"}, "Mzinga v0.9.19309",
			[]string{"Base", "Base+M", "Base+MLP", "Base+PML"}, []string{"base", "Base+", "Base+X", "BaseM", "Base+MLPX"}},
		{"any letter case", []string{"id x", " mosquito ; PILLBUG "}, "x", []string{"Base+MP"}, []string{"Base+L", "Base+ML"}},
		{"no capabilities", []string{"id Bare 1.0"}, "Bare 1.0", []string{"Base"}, []string{"Base+M"}},
		{"more lines before", []string{"child 42", "id Fake", "Ladybug"}, "Fake", []string{"Base+L"}, []string{"Base+M"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info, ok := parseInfo(tc.lines)
			if !ok || info.ID != tc.id || !slices.Equal(info.Lines, tc.lines) {
				t.Fatalf("got %+v, %v", info, ok)
			}
			for _, g := range tc.supported {
				if !info.Supports(g) {
					t.Errorf("%s not supported by %q", g, info.Capabilities)
				}
			}
			for _, g := range tc.not {
				if info.Supports(g) {
					t.Errorf("%s supported by %q", g, info.Capabilities)
				}
			}
		})
	}
	if _, ok := parseInfo([]string{"hello", "identity"}); ok {
		t.Error("a banner without an id line parsed")
	}
}

func TestLimitCommand(t *testing.T) {
	for _, tc := range []struct {
		limit BestMoveArgs
		want  string // empty: an error
	}{
		{BestMoveArgs{Depth: 3}, "bestmove depth 3"},
		{BestMoveArgs{Depth: 2, Time: time.Second}, "bestmove depth 2"},
		{BestMoveArgs{Time: time.Second}, "bestmove time 00:00:01"},
		{BestMoveArgs{Time: 1999 * time.Millisecond}, "bestmove time 00:00:01"}, // rounded down: it answers in time by itself
		{BestMoveArgs{Time: 2001 * time.Millisecond}, "bestmove time 00:00:02"},
		{BestMoveArgs{Time: 300 * time.Millisecond}, "bestmove time 00:00:01"},                      // never less than a second
		{BestMoveArgs{Time: 300 * time.Millisecond, Interruptible: true}, "bestmove time 00:00:01"}, // and stopped at 0.3 s
		{BestMoveArgs{Time: 300 * time.Millisecond, FractionalSeconds: true}, "bestmove time 00:00:00.300"},
		{BestMoveArgs{Time: 3*time.Hour + 2*time.Minute + 5*time.Second + 7*time.Millisecond, FractionalSeconds: true}, "bestmove time 03:02:05.007"},
		{BestMoveArgs{Time: 100 * time.Hour}, "bestmove time 100:00:00"},
		{BestMoveArgs{Time: 97 * time.Millisecond, FractionalSeconds: true}, "bestmove time 00:00:00.097"}, // not .97, ten times over
		{BestMoveArgs{Time: 1010 * time.Millisecond, FractionalSeconds: true}, "bestmove time 00:00:01.010"},
		{BestMoveArgs{}, ""},
		{BestMoveArgs{Depth: -1}, ""},
		{BestMoveArgs{Time: -time.Second}, ""},
	} {
		got, err := tc.limit.command()
		if (err != nil) != (tc.want == "") || got != tc.want {
			t.Errorf("%+v: got %q, %v; want %q", tc.limit, got, err, tc.want)
		}
		// A command is written once per search: its string is its one allocation.
		if allocs := testing.AllocsPerRun(10, func() { tc.limit.command() }); tc.want != "" && allocs > 1 {
			t.Errorf("%+v: %v allocations; want 1", tc.limit, allocs)
		}
	}
}

func TestBestMoveAnswer(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  string // empty: no answer
	}{
		{[]string{"wS1"}, "wS1"},
		{[]string{"bG1 -wS1"}, "bG1 -wS1"},
		{[]string{"pass"}, "pass"},
		{[]string{"wS1;1;0.5;wS1", "wB1 wS1-;3;2.5;wB1 wS1- bQ"}, "wB1 wS1-"},
		{[]string{"wS1", ""}, ""},
		{[]string{"Base;InProgress;White[2];wS1"}, ""},
		{[]string{"thinking..."}, ""},
		{nil, ""},
	} {
		got, ok := bestMoveAnswer(tc.lines)
		if ok != (tc.want != "") || (ok && got != tc.want) {
			t.Errorf("%q: got %q, %v; want %q", tc.lines, got, ok, tc.want)
		}
	}
}

func TestLooksLikeGameString(t *testing.T) {
	for s, want := range map[string]bool{
		"Base;NotStarted;White[1]":                  true,
		"Base+MLP;InProgress;Black[3];wS1;bS1 wS1-": true,
		"Base;Draw;White[7];wS1":                    true,
		"Base;InProgress":                           false,
		"Base;Running;White[1]":                     false,
		"Base;InProgress;Red[1]":                    false,
		"wS1;wB1;wG1":                               false,
		"":                                          false,
	} {
		if got := looksLikeGameString(s); got != want {
			t.Errorf("%q: got %v", s, got)
		}
	}
}

func TestParseOption(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Option // zero: an error
	}{
		{"MaxBranchingFactor;int;500;500;1;500", Option{"MaxBranchingFactor", "int", "500", "500", []string{"1", "500"}}},
		{"PonderDuringIdle;enum;Disabled;SingleThreaded;Disabled;SingleThreaded;MultiThreaded",
			Option{"PonderDuringIdle", "enum", "Disabled", "SingleThreaded", []string{"Disabled", "SingleThreaded", "MultiThreaded"}}},
		{"ReportIntermediateBestMoves;bool;False;False", Option{"ReportIntermediateBestMoves", "bool", "False", "False", nil}},
		{"Name;string;;", Option{"Name", "string", "", "", nil}},
		{"", Option{}},
		{"A;int;1", Option{}},
		{";int;1;1", Option{}},
		{"A;;1;1", Option{}},
	} {
		got, err := ParseOption(tc.line)
		if tc.want.Name == "" {
			if err == nil {
				t.Errorf("%q parsed as %+v", tc.line, got)
			}
			continue
		}
		if err != nil || got.Name != tc.want.Name || got.Type != tc.want.Type || got.Value != tc.want.Value ||
			got.Default != tc.want.Default || !slices.Equal(got.Extra, tc.want.Extra) || got.String() != tc.line {
			t.Errorf("%q: got %+v, %v", tc.line, got, err)
		}
	}
}

func FuzzParseOption(f *testing.F) {
	f.Add("MaxBranchingFactor;int;500;500;1;500")
	f.Add("ReportIntermediateBestMoves;bool;False;False")
	f.Add("A;;;")
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOption(s)
		if err != nil {
			return
		}
		// An option that parsed is written back as it was read.
		if o.String() != s {
			t.Fatalf("%q came back as %q", s, o.String())
		}
	})
}

func TestQuoteLines(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{"a"}, `"a"`},
		{[]string{"a", "b"}, `"a" | "b"`},
		{[]string{"x", "x", "x", "y"}, `"x" (3 times) | "y"`},
		{[]string{"1", "2", "3", "4", "5", "5", "6"}, `"1" | "2" | "3" | "4" and 3 more lines`},
		{[]string{"\x00\xff"}, `"\x00\xff"`},
		{[]string{strings.Repeat("z", 150)}, `"` + strings.Repeat("z", 100) + `..."`},
	} {
		if got := quoteLines(tc.lines); got != tc.want {
			t.Errorf("quoteLines(%q) = %s; want %s", tc.lines, got, tc.want)
		}
	}
}
