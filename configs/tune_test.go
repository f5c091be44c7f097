package configs

import (
	"strings"
	"testing"
)

// The tuning demonstration's file loads as a tune: its one engine, the [tune] table, and the
// run's settings with a match's defaults.
func TestReadTune(t *testing.T) {
	tn, err := ReadTune("tune/hivebot.toml", fakeResolver)
	if err != nil {
		t.Fatal(err)
	}
	if tn.Engine.Name != "hivebot" || tn.Engine.Time.String() != "depth=3" || tn.Iterations != 1500 || len(tn.Params) != 4 ||
		tn.Seed != 26 || tn.Concurrency != 2 || tn.Openings.RandomPlies != 4 || tn.Adjudication.MaxPlies != 2*DefaultMaxMoves || tn.Alpha != nil {
		t.Errorf("tune/hivebot.toml: %+v", tn)
	}
}

// A match refuses a tune's file, and says how to run it.
func TestMatchRefusesATune(t *testing.T) {
	_, err := LoadFile("tune/hivebot.toml", fakeResolver)
	if err == nil || !strings.Contains(err.Error(), "tune/hivebot.toml: tune: the file describes a tune: run it with arbiter tune -config") {
		t.Errorf("got %v, want a refusal naming arbiter tune", err)
	}
}
