package rules

import (
	"strings"
	"testing"
)

// TestErrorMessages: an error says the package's name once, and Message gives it without,
// for a caller that names the source itself; a GameString's error names its entry and its
// cause without the cause's prefix.
func TestErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		gameString, want string
	}{
		{"Base+MLP;Bogus;White[1]", `GameString entry 1 ("Bogus"): "Bogus" is not a game state (want NotStarted, InProgress, Draw, WhiteWins or BlackWins)`},
		{"Base+MLP;InProgress;Blue[1]", `GameString entry 2 ("Blue[1]"): "Blue[1]" is not a TurnString (want White[n] or Black[n])`},
		{"Base+Q;NotStarted;White[1]", `GameString entry 0 ("Base+Q"): "Base+Q" is not a game type (want Base, Base+M, Base+L, Base+P, Base+ML, Base+MP, Base+LP or Base+MLP)`},
	} {
		_, err := ParseGameString(tc.gameString)
		if err == nil {
			t.Errorf("%s: accepted", tc.gameString)
			continue
		}
		if got := err.(*GameStringError).Message(); got != tc.want {
			t.Errorf("%s: Message %q, want %q", tc.gameString, got, tc.want)
		}
		if got := err.Error(); got != "rules: "+tc.want {
			t.Errorf("%s: Error %q, want the message after \"rules: \"", tc.gameString, got)
		}
	}
}

// TestGameTypeList: the list of game types that the messages of rules, the arbiter and serve
// are written with, in Mzinga's order, each parsing back to its game type.
func TestGameTypeList(t *testing.T) {
	for last, want := range map[string]string{
		", ":   "Base, Base+M, Base+L, Base+P, Base+ML, Base+MP, Base+LP, Base+MLP",
		" or ": "Base, Base+M, Base+L, Base+P, Base+ML, Base+MP, Base+LP or Base+MLP",
	} {
		if got := GameTypeList(last); got != want {
			t.Errorf("GameTypeList(%q) = %q, want %q", last, got, want)
		}
	}
	for i, name := range strings.Split(GameTypeList(", "), ", ") {
		if gt, err := ParseGameType(name); err != nil || gt != GameTypes[i] {
			t.Errorf("%q parses as %v, %v; want %v", name, gt, err, GameTypes[i])
		}
	}
}
