package configs

import (
	"errors"
	"fmt"

	"hivearbiter/arbiter"
	"hivearbiter/elo"
	"hivearbiter/results"
)

// SPRTCalc is what arbiter sprt-calc is given: an SPRT, its cap in game pairs (0: none), and
// the counts to compute its LLR from, pairs (PTNML) or games (WDL), or neither for the test's
// expected cost at DrawRatio.
type SPRTCalc struct {
	PTNML, WDL  string
	DrawRatio   float64
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       string
	Cap         int
}

// DefaultSPRTCalc is sprt-calc's settings before its flags: a normalized test of [0, 5] at a
// run's error rates, its cost reckoned at results.AssumedDrawRatio.
func DefaultSPRTCalc() SPRTCalc {
	return SPRTCalc{DrawRatio: results.AssumedDrawRatio, Elo1: 5, Alpha: arbiter.DefaultSPRTAlpha,
		Beta: arbiter.DefaultSPRTBeta, Model: elo.Normalized.String()}
}

// Cost reports whether the settings ask for the test's expected cost: no counts are given.
func (c SPRTCalc) Cost() bool { return c.PTNML == "" && c.WDL == "" }

// Test checks the settings, each flag against the others, and returns the test they describe;
// the counts are read by SPRTCounts.
func (c SPRTCalc) Test() (elo.SPRT, error) {
	if c.PTNML != "" && c.WDL != "" {
		return elo.SPRT{}, errors.New("give one of -ptnml and -wdl, or neither for the test's expected cost")
	}
	model, err := elo.ParseModel(c.Model)
	if err != nil {
		return elo.SPRT{}, err
	}
	test := elo.SPRT{Elo0: c.Elo0, Elo1: c.Elo1, Alpha: c.Alpha, Beta: c.Beta, Model: model}
	switch err := test.Validate(); {
	case err != nil:
		return test, err
	case c.Cap < 0:
		return test, fmt.Errorf("-cap %d: want a number of game pairs, or 0 for none", c.Cap)
	case c.Cap > 0 && !model.Pentanomial():
		return test, fmt.Errorf("the %s model is trinomial only: a cap of game pairs needs normalized or logistic", model)
	case c.Cap > 0 && c.WDL != "":
		return test, errors.New("-cap counts game pairs: give -ptnml, not -wdl")
	case c.Cost() && !model.Pentanomial():
		return test, fmt.Errorf("the %s model is trinomial only: its expected cost has no pair model", model)
	case c.Cost() && !(c.DrawRatio >= 0 && c.DrawRatio < 1):
		return test, fmt.Errorf("-draw-ratio %g: want a share of games in [0, 1)", c.DrawRatio)
	}
	return test, nil
}
