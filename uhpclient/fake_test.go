//go:build unix

package uhpclient

import (
	"strings"
	"time"

	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
)

// The test binary doubles as the engines under test (package uhpfake). A scenario is the
// normal engine with one way to misbehave; its name also names the engine in errors.
func scenario(name string) uhpfake.Config {
	cfg := uhpfake.Config{
		ID:       "Fake v1",
		OnSIGINT: "report",
		Options: []uhpserver.Option{
			{Name: "MaxBranchingFactor", Type: "int", Value: "500", Default: "500", Extra: []string{"1", "500"}},
			{Name: "PonderDuringIdle", Type: "enum", Value: "SingleThreaded", Default: "SingleThreaded",
				Extra: []string{"Disabled", "SingleThreaded", "MultiThreaded"}},
		},
		Faults: []uhpfake.Fault{
			// Mzinga on mono: an err of two lines.
			{On: "newgame", Arg: "Foo", Print: []string{"err Couldn't parse expansion pieces.", "Parameter name: boardString", "ok"}, Then: "silent"},
			// MzingaCpp, for an option it does not have: only ok.
			{On: "options", Arg: "get Foo", Print: []string{"ok"}, Then: "silent"},
		},
	}
	var faults []uhpfake.Fault
	switch name {
	case "slow-start":
		faults = []uhpfake.Fault{{On: "start", Delay: time.Minute}}
	case "no-banner":
		faults = []uhpfake.Fault{{On: "start", Print: []string{"hello", "ok"}, Then: "exit"}}
	case "not-uhp": // prints something, never a banner, and waits
		faults = []uhpfake.Fault{{On: "start", Print: []string{"HELLO I AM NOT UHP"}, Then: "hang"}}
	case "crash-start":
		faults = []uhpfake.Fault{{On: "start", Stderr: []string{"fatal: cannot load weights"}, Then: "exit", Code: 3}}
	case "stderr-flood": // 20 MB, far more than a pipe holds
		faults = []uhpfake.Fault{{On: "start", Stderr: []string{strings.Repeat("e", 999)}, Repeat: 20_000}}
	case "child", "escaped-child": // a helper process holding the engine's pipes, as a worker pool would
		cfg.Child = map[string]string{"child": "group", "escaped-child": "escaped"}[name]
	case "bom-crlf": // Mzinga on mono: a byte-order mark on both streams, and CRLF
		cfg.BOM, cfg.CRLF = true, true
		faults = []uhpfake.Fault{{On: "start", Stderr: []string{"mono: starting"}}}
	case "exits-on-own":
		faults = []uhpfake.Fault{{On: "ready", Then: "exit"}}
	case "deaf": // reads nothing more, so its input pipe fills
		faults = []uhpfake.Fault{{On: "ready", Then: "hang"}}
	case "ignore-exit-spin": // Mzinga after its input ends: 100 % CPU, silent
		faults = []uhpfake.Fault{{On: "exit", Then: "spin"}, {On: "eof", Then: "spin"}}
	case "ignore-exit-flood": // MzingaCpp after its input ends
		faults = []uhpfake.Fault{{On: "exit", Print: []string{"err Invalid command.", "ok"}, Then: "silent"},
			{On: "eof", Print: []string{"err Invalid command.", "ok"}, Repeat: -1}}
	case "long-game": // the GameString of a 9,000-ply game, as an engine echoes it
		gs := "Base;InProgress;Black[4500];wS1" + strings.Repeat(";bS1 wS1-;wS1 -bS1", 4500)
		faults = []uhpfake.Fault{{On: "newgame", Print: []string{gs, "ok"}, Then: "silent"}}
	case "hang-play":
		faults = []uhpfake.Fault{{On: "play", Then: "hang"}}
	case "last-words": // answers, then says goodbye on stdout and exits between commands
		faults = []uhpfake.Fault{{On: "play", Print: []string{"Base;InProgress;Black[1];wS1", "ok", "goodbye"}, Then: "exit"}}
	case "self-kill":
		faults = []uhpfake.Fault{{On: "play", Then: "kill"}}
	case "bad-gamestring":
		faults = []uhpfake.Fault{{On: "play", Arg: "wS1", Print: []string{"wS1", "ok"}, Then: "silent"}}
	case "partial":
		faults = []uhpfake.Fault{{On: "validmoves", Print: []string{"wS1;wB1", "thinking about the rest"}, Then: "hang"}}
	case "intermediate":
		faults = []uhpfake.Fault{{On: "bestmove", Print: []string{"wS1;1;0.50;wS1", "wB1;2;1.00;wB1 bS1", "wG1;3;2.50;wG1 bS1 wA1", "ok"}, Then: "silent"}}
	case "hang-ignore-int":
		faults = []uhpfake.Fault{{On: "bestmove", Then: "hang"}}
	case "honour-int": // thinks the time it is given, and answers the last move when interrupted
		cfg.OnSIGINT, cfg.Think, cfg.Play = "interrupt", true, "last"
	case "nokamute": // thinks the whole seconds it is given, refuses fractions, dies of SIGINT
		cfg.Think, cfg.WholeSeconds = true, true
	case "die-on-int": // a Python engine without a handler for KeyboardInterrupt
		cfg.OnSIGINT = ""
		faults = []uhpfake.Fault{{On: "bestmove", Then: "hang"}}
	case "crash-bestmove": // nokamute after the game is over
		faults = []uhpfake.Fault{{On: "bestmove", Then: "exit", Code: 101,
			Stderr: []string{"thread 'main' panicked at src/player.rs:168:50:", "called `Option::unwrap()` on a `None` value"}}}
	case "no-ok-exit":
		faults = []uhpfake.Fault{{On: "bestmove", Print: []string{"wS1"}, Stderr: []string{"fatal: search thread died"}, Then: "exit"}}
	case "missing-ok": // prints its move and no "ok"
		faults = []uhpfake.Fault{{On: "bestmove", Then: "no-ok"}, {On: "play", Then: "no-ok"}}
	case "no-newline": // prints its banner without the last line end, and waits
		faults = []uhpfake.Fault{{On: "start", Print: []string{"id Fake v1\nMosquito;Ladybug;Pillbug\nok"}, NoEOL: true, Then: "hang"}}
	case "unflushed": // a Python engine that prints without flush=True
		cfg.Unflushed = true
	case "banner-on-info":
		cfg.BannerOnInfo = true
	case "debug-lines": // prints its thoughts on stdout before the move
		faults = []uhpfake.Fault{{On: "bestmove", Print: []string{"debug: 3 moves considered", "debug: best so far wS1"}}}
	case "long-line": // 10 MiB on one line
		faults = []uhpfake.Fault{{On: "bestmove", Print: []string{strings.Repeat("x", 1024)}, Repeat: 10 << 10, NoEOL: true, Then: "hang"}}
	case "flood":
		faults = []uhpfake.Fault{{On: "bestmove", Print: []string{"info depth 1"}, Repeat: -1}}
	case "garbage":
		faults = []uhpfake.Fault{{On: "bestmove", Print: []string{"\x00\x07 garbage \xff"}, Repeat: -1, Every: 5 * time.Millisecond}}
	}
	cfg.Faults = append(faults, cfg.Faults...)
	return cfg
}
