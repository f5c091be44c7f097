//go:build unix

package uhp

import (
	"bufio"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"testing"
	"time"

	"hivearbiter/rules"
)

// The test binary doubles as the engine, as in os/exec's tests: with fakeEnv set it runs
// fakeEngine, a correct UHP engine but for the fault its scenario names. The player's tests
// and the compliance check's share it.
const fakeEnv = "UHP_FAKE"

func TestMain(m *testing.M) {
	if scenario := os.Getenv(fakeEnv); scenario != "" {
		fakeEngine(scenario)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeEngine plays the first valid move. Its search lasts the time it is given (fractions of
// a second included), or until SIGINT. Scenarios: "good" (and "normal") behave; the faults are
// "slow-start" (a minute before its banner), "whole-seconds" (err on a fraction of a second),
// "die-on-int" (as whole-seconds, and SIGINT kills it), "accepts-illegal" (plays whatever it
// is told, or pretends to), "crash-depth" (exits on bestmove depth), "nokamute-validmoves"
// (lists one move too few), "trailing-semicolon" (a GameString that ends with ";"); only
// "good" has a bench.
func fakeEngine(scenario string) {
	sigint := make(chan os.Signal, 1)
	if scenario == "die-on-int" {
		signal.Reset(os.Interrupt)
	} else {
		signal.Notify(sigint, os.Interrupt)
	}
	if scenario == "slow-start" {
		time.Sleep(time.Minute)
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(lines ...string) {
		for _, l := range lines {
			out.WriteString(l + "\n")
		}
		out.Flush()
	}
	say("id fake-"+scenario+" v1", "Mosquito;Ladybug;Pillbug", "ok")
	g := rules.NewGame(rules.Base)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		verb, arg, _ := strings.Cut(in.Text(), " ")
		switch verb {
		case "exit":
			return
		case "newgame":
			if arg == "" {
				arg = "Base"
			}
			var err error
			if g, err = rules.ParseGameString(arg); err != nil {
				say("err "+err.Error(), "ok")
				continue
			}
			if scenario == "trailing-semicolon" {
				say(g.GameString()+";", "ok")
				continue
			}
			say(g.GameString(), "ok")
		case "play", "pass":
			if verb == "pass" {
				arg = "pass"
			}
			if err := g.Play(arg); err != nil {
				if scenario == "accepts-illegal" {
					say(g.GameString(), "ok")
					continue
				}
				say("invalidmove "+err.Error(), "ok")
				continue
			}
			say(g.GameString(), "ok")
		case "undo":
			g.Undo(2)
			say(g.GameString(), "ok")
		case "validmoves":
			moves := g.ValidMoveStrings()
			if scenario == "nokamute-validmoves" && len(moves) > 1 {
				moves = moves[1:]
			}
			say(strings.Join(moves, ";"), "ok")
		case "options":
			say("ok")
		case "bestmove":
			how, limit, _ := strings.Cut(arg, " ")
			if how == "depth" && scenario == "crash-depth" {
				os.Exit(3)
			}
			if how == "time" {
				if strings.Contains(limit, ".") && (scenario == "whole-seconds" || scenario == "die-on-int") {
					say("err String was not recognized as a valid TimeSpan.", "ok")
					continue
				}
				var h, m int
				var s float64
				fmt.Sscanf(limit, "%d:%d:%f", &h, &m, &s)
				select {
				case <-time.After(time.Duration((float64(h*3600+m*60) + s) * float64(time.Second))):
				case <-sigint:
				}
			}
			say(g.ValidMoveStrings()[0], "ok")
		case "bench":
			if scenario != "good" {
				say("err Invalid command.", "ok")
				continue
			}
			say("nodes=1300818 time=2694 nps=482761 depth=5 positions=9 threads=1", "ok")
		default:
			say("err Invalid command.", "ok")
		}
	}
}
