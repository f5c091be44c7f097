package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/arbiter/check"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
	"hivearbiter/ci"
)

// A protocol without a compliance suite is refused by name, as a usage error, with nothing
// started. (The in-process test protocol, proto=test, has none.)
func TestCheckProtocolWithoutSuite(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"check", "-engine", "proto=" + arbitertest.Name, "cmd=random"}, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != ci.ExitUsage || !strings.Contains(stderr.String(), `protocol "test" has no compliance check`) {
		t.Errorf("exit code %d, want %d\n%s%s", code, ci.ExitUsage, stdout.String(), stderr.String())
	}
}

// TestCheckPlayerReportGolden keeps the report a user reads of a player judged by play alone
// (as gamestring and hiveapi players are) whose every answer is illegal: the first move came in
// time, and each game says which move it was and why it is illegal.
func TestCheckPlayerReportGolden(t *testing.T) {
	e := driver.EngineConfig{Name: "bot", Protocol: arbitertest.Name, Command: []string{"illegal@0"},
		Time: driver.TimeControl{MoveTime: time.Second}}
	rows := compliance.PlayerRows{Settings: "settings", SettingsDetail: "none", Greeting: "greeting", Close: "exits at the end of its input"}
	checks, err := check.PlaySuite(t.Context(), arbitertest.Protocol{}, e, compliance.Options{Games: 2, Plies: 10, Seed: 1}, rows)
	if err != nil {
		t.Fatal(err)
	}
	checkTableGolden(t, checks, "player-illegal.golden")
}
