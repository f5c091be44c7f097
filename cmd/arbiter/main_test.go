package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"testing"
	"time"

	"hivearbiter/rules"
)

// The test binary doubles as the programs the tests run: the arbiter itself (so a test can
// kill it with SIGKILL), the bundled engine (builtin=hivebot resolves to "<binary> hivebot"),
// and fake UHP engines that misbehave in one chosen way.
func TestMain(m *testing.M) {
	// Engines inherit the arbiter's environment, so the engine scenarios are checked first.
	switch {
	case os.Getenv("FAKE_UHP") != "":
		fakeEngine(os.Getenv("FAKE_UHP"))
		os.Exit(0)
	case len(os.Args) > 1 && os.Args[1] == "--uhp": // the README's "./my-engine --uhp"
		fakeEngine("random")
		os.Exit(0)
	case len(os.Args) > 1 && os.Args[1] == "hivebot":
		os.Exit(exitCode(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr), os.Stderr))
	case os.Getenv("ARBITER_TEST_MAIN") == "1":
		os.Exit(runProcess(os.Args[1:]))
	}
	// Under the race detector every process sleeps a second at exit to let reports through;
	// the engines and arbiters the tests start inherit this and exit at once instead.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

// fakeEngine is a small UHP engine that plays random legal moves and misbehaves as the
// scenario says: "NAME" or "NAME@PLY" (from that game ply on).
func fakeEngine(scenario string) {
	name, plyText, _ := strings.Cut(scenario, "@")
	atPly, _ := strconv.Atoi(plyText)
	seed, _ := strconv.ParseUint(os.Getenv("FAKE_UHP_SEED"), 10, 64)
	rng := rand.New(rand.NewPCG(seed, uint64(os.Getpid())))
	out := bufio.NewWriter(os.Stdout)
	say := func(lines ...string) {
		for _, l := range lines {
			out.WriteString(l + "\n")
		}
		out.Flush()
	}
	if name == "exit-at-start" { // an engine that exists but dies before its banner
		fmt.Fprintln(os.Stderr, "fake: cannot load my weights")
		os.Exit(3)
	}
	if name == "slow-start" { // a banner that comes late: an interrupt during start-up
		time.Sleep(5 * time.Second)
	}
	say("id fake-"+name+" v1.0", "Mosquito;Ladybug;Pillbug", "ok")
	var g *rules.Game
	due := func(fault string) bool { return name == fault && g != nil && g.Ply() >= atPly }
	report := func() string {
		gs := g.GameString()
		if name == "wrong-state" { // a harmless slip: the arbiter warns, the game goes on
			gs = strings.Replace(gs, ";NotStarted;", ";InProgress;", 1)
		}
		if due("desync") {
			c := g.Clone()
			c.PlayMove(c.ValidMoves()[0])
			gs = c.GameString()
		}
		return gs
	}
	// With FAKE_UHP_GAPS, the engine measures the arbiter's latency: the time from the "ok"
	// that ends its bestmove answer to the next command it reads (BenchmarkArbiterLatency).
	gaps := &latencyLog{path: os.Getenv("FAKE_UHP_GAPS")}
	defer gaps.save()
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		gaps.received()
		fields := strings.Fields(in.Text())
		if len(fields) == 0 {
			continue
		}
		arg := strings.Join(fields[1:], " ")
		switch fields[0] {
		case "exit":
			if name == "ignore-exit" {
				continue
			}
			return
		case "options":
			say("ok")
		case "validmoves":
			moves := g.ValidMoveStrings()
			if due("bad-validmoves") {
				moves = moves[:len(moves)-1]
			}
			say(strings.Join(moves, ";"), "ok")
		case "undo":
			n := 1
			if arg != "" {
				n, _ = strconv.Atoi(arg)
			}
			if err := g.Undo(n); err != nil {
				say("err Unable to undo "+arg+" moves.", "ok")
				continue
			}
			say(report(), "ok")
		case "newgame":
			var err error
			if arg == "" {
				arg = "Base"
			}
			if g, err = rules.ParseGameString(arg); err != nil {
				say("err "+err.Error(), "ok")
				continue
			}
			say(report(), "ok")
		case "play", "pass":
			if due("crash-play") {
				os.Exit(4)
			}
			if due("hang-play") {
				time.Sleep(time.Hour)
			}
			var err error
			if fields[0] == "pass" || arg == "pass" {
				err = g.Pass()
			} else {
				err = g.Play(arg)
			}
			if err != nil {
				say("invalidmove "+err.Error(), "ok")
				continue
			}
			say(report(), "ok")
		case "bestmove":
			if delay, _ := time.ParseDuration(os.Getenv("FAKE_UHP_DELAY")); delay > 0 {
				time.Sleep(delay)
			}
			if salt := os.Getenv("FAKE_UHP_DET"); salt != "" { // worker_test.go
				var blunder bool
				if rng, blunder = deterministic(g, salt); blunder {
					say("wQ wQ", "ok")
					continue
				}
			}
			switch {
			case due("crash"):
				fmt.Fprintln(os.Stderr, "fatal: simulated crash in search")
				os.Exit(101)
			case due("hang"):
				time.Sleep(time.Hour)
			case due("hang-hard"):
				signal.Ignore(os.Interrupt)
				time.Sleep(time.Hour)
			case due("garbage"):
				say("\x00\x01 not a move", "still searching")
				time.Sleep(time.Hour)
			case due("illegal"):
				say("wQ wQ", "ok")
				continue
			case due("pass"):
				say("pass", "ok")
				continue
			case due("think"): // uses most of a 5 s budget, so that no game ends soon
				time.Sleep(4 * time.Second)
			}
			moves := g.ValidMoves()
			m := moves[rng.IntN(len(moves))]
			if m.IsPass() {
				say("pass", "ok")
			} else {
				say(g.MoveString(m), "ok")
			}
			gaps.answered()
		default:
			say("err Invalid command. Try 'help' to see a list of valid commands.", "ok")
		}
	}
}

// latencyLog collects, in a fake engine, the gaps between answering bestmove and reading the
// next command, and writes them (in nanoseconds, one per line) to its own file at the end.
type latencyLog struct {
	path  string
	since time.Time
	gaps  []int64
}

func (l *latencyLog) answered() {
	if l.path != "" {
		l.since = time.Now()
	}
}

func (l *latencyLog) received() {
	if l.path != "" && !l.since.IsZero() {
		l.gaps = append(l.gaps, time.Since(l.since).Nanoseconds())
		l.since = time.Time{}
	}
}

func (l *latencyLog) save() {
	if l.path == "" {
		return
	}
	var b strings.Builder
	for _, g := range l.gaps {
		fmt.Fprintln(&b, g)
	}
	os.WriteFile(fmt.Sprintf("%s.%d", l.path, os.Getpid()), []byte(b.String()), 0o644)
}
