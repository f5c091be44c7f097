package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/arbitertest"
	"hivearbiter/internal/golden"
)

// A protocol without a compliance suite is refused by name, as a usage error, with nothing
// started. (The in-process test protocol, proto=test, has none.)
func TestCheckProtocolWithoutSuite(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"check", "-engine", "proto=" + arbitertest.Name, "cmd=random"}, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != exitUsage || !strings.Contains(stderr.String(), `protocol "test" has no compliance check`) {
		t.Errorf("exit code %d, want %d\n%s%s", code, exitUsage, stdout.String(), stderr.String())
	}
}

// millis are scrubbed from the reports of games: timings differ run to run.
var millis = regexp.MustCompile(`\d+ ms\b`)

// TestCheckPlayerReportGolden keeps the report a user reads of a player judged by play alone
// (as gamestring and hiveapi players are) whose every answer is illegal: the first move came in
// time, and each game says which move it was and why it is illegal.
func TestCheckPlayerReportGolden(t *testing.T) {
	e := arbiter.EngineConfig{Name: "bot", Protocol: arbitertest.Name, Command: []string{"illegal@0"},
		Time: arbiter.TimeControl{MoveTime: time.Second}}
	rows := arbiter.PlayerRows{Settings: "settings", SettingsDetail: "none", Greeting: "greeting", Close: "exits at the end of its input"}
	checks, err := arbiter.CheckPlayer(t.Context(), arbitertest.Protocol{}, e, arbiter.CheckOptions{Games: 2, Plies: 10, Seed: 1}, rows)
	if err != nil {
		t.Fatal(err)
	}
	for i := range checks {
		checks[i].Detail = millis.ReplaceAllString(checks[i].Detail, "T ms")
	}
	var got bytes.Buffer
	if _, _, err := writeCheckTable(&got, checks, true); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "check", "player-illegal.golden"), got.Bytes())
}
