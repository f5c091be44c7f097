package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"hivearbiter/configs"
)

// TestConfigShowAndVersion: the demo tells users to copy configs/match.toml, which an installed
// binary has no file of: "arbiter config show match" prints it. -version prints the version.
func TestConfigShowAndVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"config", "show", "match"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	want, _ := configs.Example("match.toml")
	if stdout.String() != string(want) {
		t.Errorf("config show match printed:\n%s", stdout.String())
	}
	stdout.Reset()
	if err := run(context.Background(), []string{"-version"}, &stdout, &stderr); err != nil || !strings.HasPrefix(stdout.String(), "Hive Arbiter ") {
		t.Errorf("-version: %v %q", err, stdout.String())
	}
	if code := exitCode(run(context.Background(), []string{"config", "show", "nope"}, &stdout, &stderr), &stderr); code != exitUsage {
		t.Errorf("config show nope: exit %d", code)
	}
}

// TestRepeatedPairsWarned: game pairs on one opening replay the same games with deterministic
// engines; the run says so before it starts.
func TestRepeatedPairsWarned(t *testing.T) {
	_, output, err := playMatch(t, append(fakeEngines("random", "a", "b"), "-each", "st=0.05", "fractional=true", "-rounds", "2", "-openings", "plies=0")...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(output, "Warning: 1 of 2 game pairs repeat an opening") {
		t.Errorf("no warning of repeated pairs:\n%s", output)
	}
}
