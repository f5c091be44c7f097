//go:build unix

package uhp

import (
	"os"
	"testing"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/proc"
)

// The test binary doubles as the engine, as in os/exec's tests: package uhpfake runs it as a
// UHP engine when its environment says so. The player's tests and the compliance check's
// share the scenarios below.
func TestMain(m *testing.M) {
	proc.Main() // on Windows a copy of the test binary is its Ctrl-C sender
	uhpfake.Main()
	os.Exit(m.Run())
}

// fakeEngine describes the engine of a scenario: it plays the first valid move, and its
// search lasts the time it is given (fractions of a second included), or until SIGINT.
// "good" (and any other name) behaves; the faults are "slow-start" (a minute before its
// banner), "whole-seconds" (err on a fraction of a second), "die-on-int" (as whole-seconds,
// and SIGINT kills it), "accepts-illegal" (plays whatever it is told, or pretends to),
// "crash-depth" (exits on bestmove depth), "nokamute-validmoves" (lists one move too few),
// "trailing-semicolon" (a GameString that ends with ";" after newgame), "varying-overshoot"
// (every third timed search 0.35 s late), "growing-overshoot" (30 ms later at each move of its
// side, twice that when it is short of CPU), "random-moves" (a random move each search, and a
// NumThreads option at 2), "base-only-claims" (no
// expansion, and a Draw claimed on threefold repetition); only "good" has a bench.
func fakeEngine(scenario string) uhpfake.Config {
	cfg := uhpfake.Config{ID: "fake-" + scenario + " v1", Think: true, OnSIGINT: "interrupt"}
	switch scenario {
	case "good":
		cfg.Commands = map[string]string{"bench": "nodes=1300818 time=2694 nps=482761 depth=5 positions=9 threads=1"}
	case "slow-start":
		cfg.Faults = []uhpfake.Fault{{On: "start", Delay: time.Minute}}
	case "whole-seconds":
		cfg.WholeSeconds = true
	case "die-on-int":
		cfg.WholeSeconds, cfg.OnSIGINT = true, ""
	case "accepts-illegal":
		cfg.Faults = []uhpfake.Fault{{On: "play", Mangle: "accept-illegal"}}
	case "crash-depth":
		cfg.Faults = []uhpfake.Fault{{On: "bestmove", Arg: "depth", Then: "exit", Code: 3}}
	case "nokamute-validmoves":
		cfg.Faults = []uhpfake.Fault{{On: "validmoves", Mangle: "drop-first-move"}}
	case "base-only-claims": // plays Base alone, and claims threefold repetition as nokamute does
		cfg.Capabilities, cfg.ClaimRepetitions = []string{}, 3
	case "random-moves": // a random move each search, as nokamute's unseeded shuffle of its root moves
		cfg.Play = "random"
		cfg.Options = []uhpserver.Option{{Name: "NumThreads", Type: "int", Value: "2", Default: "2", Extra: []string{"1", "64"}}}
	case "growing-overshoot": // 30 ms more over at each move of its side, twice that when short of CPU
		cfg.OvershootPerMove = 30 * time.Millisecond
	case "varying-overshoot": // every third timed search runs 0.35 s over
		cfg.Overshoots = []time.Duration{0, 0, 350 * time.Millisecond}
	case "no-ok-timed": // prints the move of a timed search and no "ok" after it
		cfg.Faults = []uhpfake.Fault{{On: "bestmove", Arg: "time", Then: "no-ok"}}
	case "trailing-semicolon":
		cfg.Faults = []uhpfake.Fault{{On: "newgame", Mangle: "trailing-semicolon"}}
	}
	return cfg
}

// fakeConfig is an engine of the arbiter's that runs the scenario's fake engine.
func fakeConfig(scenario string) driver.EngineConfig {
	argv, env := uhpfake.Command(fakeEngine(scenario))
	return driver.EngineConfig{
		Name:    "fake",
		Command: argv,
		Env:     env,
		Time:    driver.TimeControl{MoveTime: 300 * time.Millisecond},
	}
}
