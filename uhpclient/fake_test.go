//go:build unix

package uhpclient

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The test binary doubles as the engines under test, as in os/exec's own tests: with
// UHPCLIENT_FAKE set it runs fakeEngine instead of the tests, and the scenario says how
// it misbehaves. UHPCLIENT_FAKE_PIDFILE, if set, receives its process id, so that a test
// can check the process is gone even when Start failed.
const (
	fakeEnv     = "UHPCLIENT_FAKE"
	fakePidFile = "UHPCLIENT_FAKE_PIDFILE"
)

// fakeEngine is a tiny scripted UHP engine. It returns its exit code.
func fakeEngine(scenario string) int {
	if f := os.Getenv(fakePidFile); f != "" {
		os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o644)
	}
	out := bufio.NewWriter(os.Stdout)
	eol := "\n"
	if scenario == "bom-crlf" {
		// Mzinga on mono: a byte-order mark on both streams, and CRLF.
		eol = "\r\n"
		out.WriteString("\ufeff")
		os.Stderr.WriteString("\ufeffmono: starting\r\n")
	}
	say := func(lines ...string) {
		for _, l := range lines {
			out.WriteString(l + eol)
		}
		out.Flush()
	}
	sigint := make(chan os.Signal, 1)
	signal.Notify(sigint, os.Interrupt)
	// Unless a scenario waits for SIGINT itself, a SIGINT is reported and ignored.
	noteSIGINT := func() {
		for range sigint {
			fmt.Fprintln(os.Stderr, "SIGINT received and ignored")
		}
	}

	switch scenario {
	case "sleeper": // a child of an engine
		time.Sleep(time.Minute)
		return 0
	case "slow-start":
		time.Sleep(time.Minute)
	case "no-banner":
		say("hello", "ok")
		return 0
	case "not-uhp": // prints something, never a banner, and waits
		say("HELLO I AM NOT UHP")
		time.Sleep(time.Minute)
	case "crash-start":
		fmt.Fprintln(os.Stderr, "fatal: cannot load weights")
		return 3
	case "stderr-flood":
		line := strings.Repeat("e", 999) + "\n"
		for range 20_000 { // 20 MB, far more than a pipe holds
			os.Stderr.WriteString(line)
		}
	case "child", "escaped-child":
		// A helper process holding the engine's stdout and stderr, as a worker pool would.
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), fakeEnv+"=sleeper", fakePidFile+"=")
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if scenario == "escaped-child" {
			c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // out of the engine's group
		}
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		say(fmt.Sprintf("child %d", c.Process.Pid))
	}
	if scenario != "hang-ignore-int" && scenario != "honour-int" && scenario != "die-on-int" {
		go noteSIGINT()
	}
	say("id Fake v1", "Mosquito;Ladybug;Pillbug", "ok")
	switch scenario {
	case "exits-on-own":
		return 0
	case "deaf": // reads nothing more, so its input pipe fills
		time.Sleep(time.Minute)
	}

	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		cmd := in.Text()
		verb, arg, _ := strings.Cut(cmd, " ")
		switch {
		case cmd == "exit" && scenario == "ignore-exit-spin":
			for { // Mzinga after its input ends: 100 % CPU, silent
			}
		case cmd == "exit" && scenario == "ignore-exit-flood":
			say("err Invalid command.", "ok")
		case cmd == "exit":
			return 0
		case verb == "newgame" && scenario == "long-game":
			// The GameString of a 9,000-ply game, as an engine echoes it.
			say("Base;InProgress;Black[4500];wS1"+strings.Repeat(";bS1 wS1-;wS1 -bS1", 4500), "ok")
		case verb == "newgame" && strings.Contains(arg, ";"):
			say(arg, "ok")
		case verb == "newgame" && (arg == "" || arg == "Base" || strings.HasPrefix(arg, "Base+")):
			if arg == "" {
				arg = "Base"
			}
			say(arg+";NotStarted;White[1]", "ok")
		case verb == "newgame":
			say("err Couldn't parse expansion pieces.", "Parameter name: boardString", "ok")
		case cmd == "play wQ":
			say("invalidmove You can't play your Queen Bee on your first turn.", "ok")
		case verb == "play":
			switch scenario {
			case "hang-play":
				time.Sleep(time.Minute)
			case "self-kill":
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			case "bad-gamestring":
				say(arg, "ok")
				continue
			}
			say("Base;InProgress;Black[1];"+arg, "ok")
		case cmd == "pass":
			say("invalidmove You can't pass when you have valid moves.", "ok")
		case cmd == "validmoves" && scenario == "partial":
			say("wS1;wB1", "thinking about the rest")
			time.Sleep(time.Minute)
		case cmd == "validmoves":
			say("wS1;wB1;wG1;wA1", "ok")
		case verb == "undo":
			say("Base;NotStarted;White[1]", "ok")
		case cmd == "options":
			say("MaxBranchingFactor;int;500;500;1;500",
				"PonderDuringIdle;enum;SingleThreaded;SingleThreaded;Disabled;SingleThreaded;MultiThreaded", "ok")
		case cmd == "options get MaxBranchingFactor":
			say("MaxBranchingFactor;int;500;500;1;500", "ok")
		case strings.HasPrefix(cmd, "options set MaxBranchingFactor "):
			say("MaxBranchingFactor;int;"+strings.Fields(cmd)[3]+";500;1;500", "ok")
		case verb == "options":
			say("ok") // MzingaCpp, for an option it does not have
		case verb == "bestmove":
			switch scenario {
			case "intermediate":
				say("wS1;1;0.50;wS1", "wB1;2;1.00;wB1 bS1", "wG1;3;2.50;wG1 bS1 wA1", "ok")
			case "hang-ignore-int":
				go noteSIGINT()
				time.Sleep(time.Minute)
			case "honour-int":
				<-sigint
				say("wA1", "ok")
			case "die-on-int": // a Python engine without a handler for KeyboardInterrupt
				signal.Reset(os.Interrupt)
				time.Sleep(time.Minute)
			case "crash-bestmove": // nokamute after the game is over
				fmt.Fprintln(os.Stderr, "thread 'main' panicked at src/player.rs:168:50:")
				fmt.Fprintln(os.Stderr, "called `Option::unwrap()` on a `None` value")
				return 101
			case "no-ok-exit":
				say("wS1")
				fmt.Fprintln(os.Stderr, "fatal: search thread died")
				return 0
			case "long-line":
				out.WriteString(strings.Repeat("x", 10<<20))
				out.Flush()
				time.Sleep(time.Minute)
			case "flood":
				for i := 0; ; i++ {
					say("info depth " + strconv.Itoa(i))
				}
			case "garbage":
				for {
					say("\x00\x07 garbage \xff")
					time.Sleep(5 * time.Millisecond)
				}
			default:
				say("wS1", "ok")
			}
		default:
			say("err Invalid command. Try 'help' to see a list of valid commands.", "ok")
		}
	}
	switch scenario {
	case "ignore-exit-spin":
		for {
		}
	case "ignore-exit-flood": // MzingaCpp after its input ends
		for {
			say("err Invalid command.", "ok")
		}
	}
	return 0
}
