package arbiter_test

import (
	"errors"
	"strings"
	"testing"

	"hivearbiter/arbiter"
)

// TestNormalizeReportsEveryProblem: a configuration with several mistakes gets all of them at
// once, each a ConfigError, so that a user fixes them in one go.
func TestNormalizeReportsEveryProblem(t *testing.T) {
	a, b := engine("a", "random"), engine("a", "random")
	b.Time = arbiter.TimeControl{}
	cfg := baseConfig(a, b)
	cfg.GameType = "Chess"
	cfg.SPRT = &arbiter.SPRTConfig{Elo0: 5, Elo1: 0, Model: "bayes"}
	err := cfg.Normalize()
	var ce *arbiter.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want ConfigErrors", err)
	}
	for _, want := range []string{`game type "Chess"`, `two engines are named "a"`, `engine "a" has no time control`, `SPRT model "bayes"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
}
