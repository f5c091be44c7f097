package driver

import (
	"errors"
	"strings"
	"testing"

	"hivearbiter/rules"
)

// Every diagnosis says what was seen, why and what to do, under an ID of its own.
func TestDiagnosesAreWhole(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Diagnoses() {
		if d.ID == "" || d.Fault == "" || d.Seen == "" || d.Cause == "" || d.Fix == "" {
			t.Errorf("diagnosis %+v lacks a part", d)
		}
		if seen[d.ID] {
			t.Errorf("two diagnoses are %s", d.ID)
		}
		seen[d.ID] = true
		if got, ok := LookupDiagnosis(d.ID); !ok || got.Fault != d.Fault {
			t.Errorf("LookupDiagnosis(%q) = %+v, %v", d.ID, got, ok)
		}
	}
	if _, ok := LookupDiagnosis("nonsense"); ok {
		t.Error("an unknown ID was found")
	}
}

// A diagnosed error keeps the error it explains for errors.As, and is diagnosed once.
func TestDiagnose(t *testing.T) {
	base := &PlayerError{Reason: "protocol", Err: errors.New("uhpclient: e: bestmove: it printed wS1 but no ok")}
	err := Diagnose(DiagnosisMissingOK, base)
	if d, ok := DiagnosisOf(err); !ok || d.ID != DiagnosisMissingOK {
		t.Fatalf("DiagnosisOf = %+v, %v", d, ok)
	}
	if !errors.Is(err, base) {
		t.Error("the diagnosed error does not unwrap to its error")
	}
	if again := Diagnose(DiagnosisOverrun, err); again != err {
		t.Errorf("a second diagnosis replaced the first: %v", again)
	}
	if Diagnose(DiagnosisCrash, nil) != nil {
		t.Error("a nil error was diagnosed")
	}
	if text := err.Error(); !strings.HasPrefix(text, base.Error()) || !strings.Contains(text, "fix: ") {
		t.Errorf("message %q", text)
	}
}

func TestDiagnoseMove(t *testing.T) {
	start := rules.NewGame(rules.BaseMLP)
	afterOne, err := rules.ParseGameString("Base+MLP;InProgress;Black[1];wS1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		position *rules.Game
		answer   string
		want     string // "" for no diagnosis
	}{
		{start, "ws1", ""}, // read whatever its case: MoveCaseWrong warns of it
		{afterOne, "wG1 wS1-", DiagnosisMoveSide},
		{afterOne, "wS1 - bS1", DiagnosisMoveNotation},
		{start, "S1", DiagnosisMoveNotation},
		{start, "", DiagnosisMoveNotation},
		{start, "wQ", ""},          // the queen on the first turn: the engine's own bug
		{afterOne, "bS1 wS1-", ""}, // legal
	} {
		d, ok := DiagnoseMove(tc.position, tc.answer)
		if ok != (tc.want != "") || d.ID != tc.want {
			t.Errorf("DiagnoseMove(%s, %q) = %q, %v; want %q", tc.position.GameString(), tc.answer, d.ID, ok, tc.want)
		}
	}
}

func TestMoveCaseWrong(t *testing.T) {
	for answer, want := range map[string]bool{"wS1": false, "bA1 wS1/": false, "pass": false,
		"ws1": true, "WS1": true, "bs1 wS1-": true, "bS1 Ws1-": true, "PASS": true} {
		if got := MoveCaseWrong(answer); got != want {
			t.Errorf("MoveCaseWrong(%q) = %v", answer, got)
		}
	}
}

func TestGameTypeIgnored(t *testing.T) {
	for _, tc := range []struct {
		sent, answered string
		want           bool
	}{
		{"Base+MLP", "Base;NotStarted;White[1]", true},
		{"Base+MLP;InProgress;White[2];wS1;bS1 wS1-", "Base;NotStarted;White[1]", true},
		{"Base+M", "Base+M;NotStarted;White[1]", false},
		{"Base+M", "garbage", false},
	} {
		if got := GameTypeIgnored(tc.sent, tc.answered); got != tc.want {
			t.Errorf("GameTypeIgnored(%q, %q) = %v", tc.sent, tc.answered, got)
		}
	}
}

func TestGameStringIgnored(t *testing.T) {
	const sent = "Base+MLP;InProgress;White[2];wS1;bS1 wS1-"
	for _, tc := range []struct {
		sent, answered string
		want           bool
	}{
		{sent, "Base+MLP;NotStarted;White[1]", true},
		{sent, sent, false},
		{sent, "Base;NotStarted;White[1]", false}, // another game type: a fault of its own
		{"Base+MLP", "Base+MLP;NotStarted;White[1]", false},
		{sent, "garbage", false},
	} {
		if got := GameStringIgnored(tc.sent, tc.answered); got != tc.want {
			t.Errorf("GameStringIgnored(%q, %q) = %v", tc.sent, tc.answered, got)
		}
	}
}

// FuzzDiagnoseMove: any answer in any position is diagnosed without a panic, a legal answer
// never, and a diagnosis is one of the table's.
func FuzzDiagnoseMove(f *testing.F) {
	for _, s := range []string{"wS1", "ws1", "bS1 wS1-", "wS1 - bS1", "", "pass", "PASS", "wQ \\wS1", "\xff"} {
		f.Add(s)
	}
	afterOne, err := rules.ParseGameString("Base+MLP;InProgress;Black[1];wS1")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		for _, position := range []*rules.Game{rules.NewGame(rules.BaseMLP), afterOne} {
			d, ok := DiagnoseMove(position, answer)
			if _, err := position.ParseMove(strings.TrimSpace(answer)); err == nil && ok {
				t.Errorf("the legal answer %q was diagnosed %s", answer, d.ID)
			}
			if ok {
				if _, known := LookupDiagnosis(d.ID); !known {
					t.Errorf("%q: unknown diagnosis %q", answer, d.ID)
				}
			}
			MoveCaseWrong(answer)
		}
	})
}
