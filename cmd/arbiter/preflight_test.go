package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hivearbiter/ci"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/results"
)

// In a round-robin of four engine processes, two never print their banner: the run fails
// before any game is played, naming both in one message, with the exit code of an engine
// failure. Before the preflight, the run stopped at the first game of the first of them,
// after the games before it, and named that one only.
func TestMatchPreflightNamesEveryMuteEngine(t *testing.T) {
	t.Parallel()
	mute := fakeConfig("random")
	mute.Faults = []uhpfake.Fault{{On: "start", Then: "hang"}}
	var args []string
	for _, e := range []struct {
		name string
		cfg  uhpfake.Config
	}{{"good1", fakeConfig("random")}, {"mute1", mute}, {"good2", fakeConfig("random")}, {"mute2", mute}} {
		args = append(args, fakeEngineSpec(e.name, e.cfg)...)
	}
	out := filepath.Join(t.TempDir(), "games.jsonl")
	// A start timeout that a fake engine built with the race detector meets on a loaded machine.
	const timeout = 5 * time.Second
	args = append([]string{"match", "-out", out, "-start-timeout", fmt.Sprint(timeout.Seconds()), "-rounds", "1", "-concurrency", "1"}, args...)
	args = append(args, "-each", "st=0.2", "fractional=true", "-openings", "plies=2")
	var stdout, stderr bytes.Buffer
	begin := time.Now()
	code := exitCode(run(context.Background(), args, &stdout, &stderr), &stderr)
	took := time.Since(begin)
	output := stdout.String() + stderr.String()
	if code != ci.ExitEngines {
		t.Fatalf("exit code %d, want %d\n%s", code, ci.ExitEngines, output)
	}
	for _, name := range []string{`"mute1"`, `"mute2"`, "2 engines were refused before game 1"} {
		if !strings.Contains(stderr.String(), name) {
			t.Errorf("the error lacks %s:\n%s", name, stderr.String())
		}
	}
	if strings.Contains(stderr.String(), `"good1"`) || strings.Contains(stderr.String(), `"good2"`) {
		t.Errorf("a good engine is named as broken:\n%s", output)
	}
	if strings.Contains(output, "Started game") {
		t.Errorf("a game was started:\n%s", output)
	}
	// The engines are tried at once: one after the other, the two mute ones alone would take
	// two start timeouts.
	if took >= 2*timeout {
		t.Errorf("the preflight took %v, two start timeouts of %v or more: the engines were not tried at once", took, timeout)
	}
}

// With -on-engine-failure forfeit, an engine process that crashes at its first search of every
// game is broken after 3 such games: its other games are recorded as its losses without
// starting it, the others are played out, and the run ends as a finished run (exit code 0).
func TestMatchForfeitsABrokenEngine(t *testing.T) {
	args := append(fakeEngineArgs("a", "random"), fakeEngineArgs("b", "crash@0")...)
	args = append(args, fakeEngineArgs("c", "random")...)
	args = append(args, "-rounds", "3", "-concurrency", "1", "-on-engine-failure", "forfeit",
		"-each", "st=0.2", "fractional=true", "-maxplies", "40", "-openings", "plies=2")
	recs, output, err := playMatch(t, args...)
	if err != nil {
		t.Fatalf("match failed: %v\n%s", err, output)
	}
	if len(recs) != 18 {
		t.Fatalf("%d records, want the 18 scheduled\n%s", len(recs), output)
	}
	forfeits := 0
	for _, r := range recs {
		if r.White.Name != "b" && r.Black.Name != "b" {
			continue
		}
		if r.ScoreOf("b") != 0 || r.Reason != results.ReasonCrash {
			t.Errorf("game %d: %s by %s, want b to lose by crash", r.Game, r.Result, r.Reason)
		}
		if strings.Contains(r.Detail, "b is broken (it failed 3 games in a row before its first move") {
			forfeits++
		}
	}
	// b's 12 games: 3 that it crashed in, then 9 forfeits.
	if forfeits != 9 || strings.Count(output, "Engine b is broken") != 1 {
		t.Errorf("%d forfeits, want 9, and the console should say once that b is broken:\n%s", forfeits, output)
	}
}
