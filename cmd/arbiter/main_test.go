package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/proc"

	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
)

// The test binary doubles as the programs the tests run: the arbiter itself (so a test can
// kill it with SIGKILL), the bundled engine (builtin=hivebot resolves to "<binary> hivebot"),
// and fake UHP engines that misbehave in one chosen way (uhpfake).
func TestMain(m *testing.M) {
	// On Windows the test binary is its own Ctrl-C sender, as the arbiter is (see proc.Main).
	proc.Main()
	// Engines inherit the arbiter's environment, so the fake engine is checked first.
	uhpfake.Main()
	switch {
	case len(os.Args) > 1 && os.Args[1] == "--uhp": // the README's "./my-engine --uhp"
		if err := uhpfake.Run(context.Background(), fakeConfig("random"), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case os.Getenv("ARBITER_TEST_MAIN") == "1": // the process as main runs it, hivebot included
		os.Exit(runProcess(os.Args[1:]))
	case len(os.Args) > 1 && os.Args[1] == "hivebot":
		os.Exit(exitCode(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr), os.Stderr))
	}
	// Under the race detector every process sleeps a second at exit to let reports through;
	// the engines and arbiters the tests start inherit this and exit at once instead.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

// fakeConfig is the fake UHP engine (package uhpfake) of a scenario: an engine that plays
// random legal moves and misbehaves as the scenario says, "NAME" or "NAME@PLY" (from that game
// ply on).
func fakeConfig(scenario string) uhpfake.Config {
	name, plyText, _ := strings.Cut(scenario, "@")
	ply, _ := strconv.Atoi(plyText)
	cfg := uhpfake.Config{ID: "fake-" + name + " v1.0", Play: "random", Seed: 7}
	fault, ok := map[string]uhpfake.Fault{
		// An engine that exists but dies before its banner.
		"exit-at-start": {On: "start", Stderr: []string{"fake: cannot load my weights"}, Then: "exit", Code: 3},
		// A banner that comes late: an interrupt during start-up.
		"slow-start": {On: "start", Delay: 5 * time.Second},
		// A harmless slip: the arbiter warns, the game goes on.
		"wrong-state":    {Mangle: "wrong-state"},
		"desync":         {Mangle: "desync"},
		"bad-validmoves": {On: "validmoves", Mangle: "drop-last-move"},
		"crash-play":     {On: "play", Then: "exit", Code: 4},
		"hang-play":      {On: "play", Then: "hang"},
		"crash":          {On: "bestmove", Stderr: []string{"fatal: simulated crash in search"}, Then: "exit", Code: 101},
		"hang":           {On: "bestmove", Then: "hang"},
		"hang-hard":      {On: "bestmove", Then: "hang"}, // and deaf to SIGINT, below
		"garbage":        {On: "bestmove", Print: []string{"\x00\x01 not a move", "still searching"}, Then: "hang"},
		"illegal":        {On: "bestmove", Print: []string{"wQ wQ", "ok"}, Then: "silent"},
		"pass":           {On: "bestmove", Print: []string{"pass", "ok"}, Then: "silent"},
		// Uses most of a 5 s budget, so that no game ends soon.
		"think":       {On: "bestmove", Delay: 4 * time.Second},
		"ignore-exit": {On: "exit", Then: "silent"},
	}[name]
	if ok {
		fault.FromPly = ply
		cfg.Faults = []uhpfake.Fault{fault}
	}
	switch name {
	case "hang-hard":
		cfg.OnSIGINT = "ignore"
	case "nokamute":
		// As nokamute 1.0.3 plays (reference UHP-NOTES.md 7.1, 7.7): whole seconds only, a
		// search that lasts its budget, death by SIGINT, a Draw claimed on threefold repetition.
		cfg.WholeSeconds, cfg.Think, cfg.ClaimRepetitions = true, true, 3
		cfg.Options = []uhpserver.Option{{Name: "NumThreads", Type: "int", Value: "2", Default: "2", Extra: []string{"1", "64"}}}
	case "base-only": // and deterministic: its moves depend on the position alone
		cfg.Capabilities, cfg.Play, cfg.Salt = []string{}, "", "base-only"
	case "deterministic":
		// Its moves depend on the position alone, in every process: a deterministic engine.
		cfg.Play, cfg.Salt = "", "deterministic"
	}
	return cfg
}

// fakeEngineSpec is an -engine specification running the test binary as a fake UHP engine.
func fakeEngineSpec(name string, cfg uhpfake.Config) []string {
	return []string{"-engine", "cmd=" + os.Args[0], "name=" + name, "env=" + uhpfake.Env(cfg)}
}
