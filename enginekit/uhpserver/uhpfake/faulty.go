package uhpfake

import "time"

// traceback is what a Python engine prints on standard error when it crashes: the test of a
// stderr excerpt is that its file and line survive.
var traceback = Lines{
	"Traceback (most recent call last):",
	`  File "/home/me/engine.py", line 88, in <module>`,
	"    main()",
	`  File "/home/me/engine.py", line 80, in main`,
	"    reply = handle(line)",
	`  File "/home/me/engine.py", line 41, in handle`,
	"    return best_move(board)",
	`  File "/home/me/engine.py", line 27, in best_move`,
	"    return moves[0]",
	"IndexError: list index out of range",
}

// Faulty returns the Config of an engine that shows one fault of the arbiter's table of
// diagnoses (package driver's Diagnoses), by the diagnosis' ID, as the engines of new authors
// show it; ok is false for an ID it has no fake for. Each otherwise behaves: it answers at once
// with the first valid move.
func Faulty(id string) (cfg Config, ok bool) {
	cfg = Config{ID: "faulty-" + id + " v1"}
	switch id {
	case "no-output": // print() to a pipe, never flushed
		cfg.Unflushed = true
	case "no-newline": // sys.stdout.write without "\n" for the last line of the banner
		cfg.Faults = []Fault{{On: "start", Print: Lines{"id faulty-no-newline v1\nMosquito;Ladybug;Pillbug\nok"}, NoEOL: true, Then: "hang"}}
	case "banner-on-info":
		cfg.BannerOnInfo = true
	case "missing-ok":
		cfg.Faults = []Fault{{On: "bestmove", Then: "no-ok"}}
	case "lines-before-reply":
		cfg.Faults = []Fault{{On: "bestmove", Print: Lines{"debug: 7 moves, best so far the first"}}}
	case "move-case":
		cfg.Faults = []Fault{{On: "bestmove", Mangle: "lower-case"}}
	case "move-side":
		cfg.Faults = []Fault{{On: "bestmove", Mangle: "other-side"}}
	case "move-notation": // a space too many
		cfg.Faults = []Fault{{On: "bestmove", Print: Lines{"wS1 - bS1", "ok"}, Then: "silent"}}
	case "gametype-ignored": // advertises every expansion, plays Base alone
		cfg.Faults = []Fault{{On: "newgame", Mangle: "ignore-gametype"}}
	case "gamestring-ignored":
		cfg.Faults = []Fault{{On: "newgame", Mangle: "ignore-gamestring"}}
	case "crash":
		cfg.Faults = []Fault{{On: "bestmove", Stderr: traceback, Then: "exit", Code: 1}}
	case "overrun": // searches its budget and two seconds more
		cfg.Think, cfg.Overshoot = true, 2*time.Second
	default:
		return Config{}, false
	}
	return cfg, true
}

// FiveFaults is an engine with five faults at once, each in another command, as a beginner's
// engine has them: its banner only on "info", the moves of newgame's GameString ignored, lines
// before the GameString of play, moves in lower case, and a crash with a traceback on undo.
func FiveFaults() Config {
	return Config{ID: "five-faults v1", BannerOnInfo: true, Faults: []Fault{
		{On: "newgame", Mangle: "ignore-gamestring"},
		{On: "play", Print: Lines{"debug: playing it"}},
		{On: "bestmove", Mangle: "lower-case"},
		{On: "undo", Stderr: traceback, Then: "exit", Code: 1},
	}}
}
