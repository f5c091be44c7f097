package ugi_test

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/enginekit/ugiserver"
	"hivearbiter/internal/proc"
	"hivearbiter/rules"
)

// The test binary doubles as the UGI engines under test, as in os/exec's own tests: with
// UGIPLAYER_FAKE set it runs fakeEngine instead of the tests, and the scenario says how it
// misbehaves. UGIPLAYER_FAKE_LOG, if set, names a file that receives every line the engine
// is sent: the transcripts the golden tests compare.
const (
	fakeEnv = "UGIPLAYER_FAKE"
	fakeLog = "UGIPLAYER_FAKE_LOG"
)

func TestMain(m *testing.M) {
	proc.Main() // on Windows a copy of the test binary is its Ctrl-C sender
	if scenario := os.Getenv(fakeEnv); scenario != "" {
		os.Exit(fakeEngine(scenario))
	}
	// Under the race detector every process sleeps a second at exit to let reports through;
	// the fakes this test starts inherit this and exit at once instead.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

// fakeEngine is a scripted UGI engine that plays the first legal move in Mzinga's order of
// valid moves, sorted, unless its scenario says otherwise. It returns its exit code.
func fakeEngine(scenario string) int {
	var log *os.File
	if path := os.Getenv(fakeLog); path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		log = f
		defer f.Close()
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(lines ...string) {
		for _, l := range lines {
			out.WriteString(l + "\n")
		}
		out.Flush()
	}
	game := rules.NewGame(rules.Base)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		line := in.Text()
		if log != nil {
			fmt.Fprintln(log, line)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "ugi":
			say("some chatter before the handshake", "id name Fake UGI 1.0", "id author Tests")
			if scenario == "no-ugiok" {
				continue
			}
			say("option name Hash type spin default 16 min 1 max 1024", "ugiok")
		case "isready":
			say("readyok")
		case "uginewgame":
			game = rules.NewGame(rules.Base)
		case "position":
			switch {
			case scenario == "base-only" && f[1] == "fen":
				say("info error this engine plays Base only")
				continue
			case scenario == "refuse-moves" && len(f) > 3:
				say("info error I do not know that move")
				continue
			}
			g, err := ugiserver.ParsePosition(f[1:])
			if err != nil {
				say("info error " + err.Error())
				continue
			}
			game = g
		case "query":
			if scenario == "claims" && len(f) == 2 && f[1] != "p1turn" {
				say(map[string]string{"gameover": "response true", "result": "response p2win"}[f[1]])
				continue
			}
			answer, err := ugiserver.Query(game, f[1:])
			if err != nil {
				say("info error " + err.Error())
				continue
			}
			say("response " + answer)
		case "quit":
			return 0
		case "stop":
		case "go":
			moves := game.ValidMoveStrings()
			slices.Sort(moves)
			best := ugiserver.EncodeMove(moves[0])
			info := "info depth 1 score cp 5 nodes 10 time 1 nps 10000 pv " + best
			switch scenario {
			case "crash":
				fmt.Fprintln(os.Stderr, "fatal: out of cheese")
				return 3
			case "hang":
				time.Sleep(time.Minute) // ignores stop, and everything else
			case "stop-late":
				// Searches until stopped, as "go infinite" does.
				for in.Scan() {
					if log != nil {
						fmt.Fprintln(log, in.Text())
					}
					if in.Text() == "isready" {
						say("readyok")
					}
					if in.Text() == "stop" {
						break
					}
				}
				say(info, "bestmove "+best)
			case "three-token":
				say("bestmove " + best + " wS1")
			case "bare":
				say("bestmove")
			case "null":
				say("bestmove 0000")
			case "pass": // while it has moves
				say("bestmove pass")
			case "slow": // answers a second late, deaf to stop
				time.Sleep(time.Second)
				say(info, "bestmove "+best)
			case "illegal":
				say("bestmove " + map[bool]string{true: "wQ", false: "bQ"}[game.ToMove() == rules.White])
			case "garbage":
				say("\x01\x02 what is this", "info depth x y z", "bestmove ~~~~")
			case "two-underscores":
				say("bestmove bS1_wS1_-")
			default:
				say("info string thinking", info, "bestmove "+best)
			}
		default:
			say("info error unknown command " + f[0])
		}
	}
	return 0
}
