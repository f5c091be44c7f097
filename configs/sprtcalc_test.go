package configs

import (
	"strings"
	"testing"

	"hivearbiter/elo"
)

// TestSPRTCalcTest: sprt-calc's settings make the test they describe, or are refused with
// the flag at fault named, the first fault first, as the command reports it.
func TestSPRTCalcTest(t *testing.T) {
	def := DefaultSPRTCalc()
	test, err := def.Test()
	if want := (elo.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: elo.Normalized}); err != nil || test != want {
		t.Fatalf("the default settings' test = %+v, %v, want %+v", test, err, want)
	}
	if !def.Cost() {
		t.Error("settings without counts do not ask for the test's cost")
	}
	for _, tc := range []struct {
		name string
		set  func(*SPRTCalc)
		want string // "" for a test
	}{
		{"pair counts", func(c *SPRTCalc) { c.PTNML = "1,2,3,4,5" }, ""},
		{"a cap with pair counts", func(c *SPRTCalc) { c.PTNML, c.Cap = "1,2,3,4,5", 100 }, ""},
		{"game counts, trinomial", func(c *SPRTCalc) { c.WDL, c.Model = "10,5,3", "bayesian" }, ""},
		{"both counts", func(c *SPRTCalc) { c.PTNML, c.WDL, c.Model = "1,2,3,4,5", "1,2,3", "nonsense" }, "give one of -ptnml and -wdl"},
		{"an unknown model", func(c *SPRTCalc) { c.Model, c.Cap = "nonsense", -1 }, `unknown SPRT model "nonsense"`},
		{"bounds reversed", func(c *SPRTCalc) { c.Elo0, c.Elo1, c.Cap = 5, 0, -1 }, "SPRT elo0 (5) must be less than elo1 (0)"},
		{"a negative cap", func(c *SPRTCalc) { c.Cap = -1 }, "-cap -1: want a number of game pairs"},
		{"a cap of a trinomial model", func(c *SPRTCalc) { c.Cap, c.Model = 10, "cutechess" }, "the cutechess model is trinomial only: a cap of game pairs"},
		{"a cap with game counts", func(c *SPRTCalc) { c.Cap, c.WDL = 10, "1,2,3" }, "-cap counts game pairs: give -ptnml, not -wdl"},
		{"the cost of a trinomial model", func(c *SPRTCalc) { c.Model = "legacy" }, "the legacy model is trinomial only: its expected cost"},
		{"a draw ratio of 1", func(c *SPRTCalc) { c.DrawRatio = 1 }, "-draw-ratio 1: want a share of games in [0, 1)"},
		{"a draw ratio below 0", func(c *SPRTCalc) { c.DrawRatio = -0.1 }, "-draw-ratio -0.1"},
		{"a draw ratio with counts", func(c *SPRTCalc) { c.DrawRatio, c.PTNML = 2, "1,2,3,4,5" }, ""},
	} {
		c := DefaultSPRTCalc()
		tc.set(&c)
		_, err := c.Test()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
