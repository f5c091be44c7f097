package rules

import (
	"strings"
	"testing"
)

func TestGameStringErrorSaysItsPackageOnce(t *testing.T) {
	_, err := ParseGameString("Base;InProgress;White[2];wS1;")
	if err == nil || strings.Count(err.Error(), "rules:") != 1 {
		t.Errorf("got %v; want one error that names its package once", err)
	}
}
