//go:build linux

package main

import (
	"fmt"
	"strings"
	"time"

	"hivearbiter/enginekit/uhpserver/uhpfake"
)

// healthy names the engines that never misbehave on purpose (deeper is hivebot at depth 2, a
// pool soak's SPRT opponent): any fault of theirs in a record
// (a time loss above all) is a defect of the arbiter or of the machine, not noise.
var healthy = map[string]bool{"hivebot": true, "steady": true, "deeper": true}

// fakeTime is the fakes' time per move. It is short, so that a fake that hangs or answers
// late costs the run little; lateAnswer outlives it and the arbiter's default margin.
//
// defaultCommandTimeout is the arbiter's -command-timeout (the soak's flag of the same name),
// the time a staller costs: generous, since a healthy engine that misses it loses its game,
// and one second was missed by hivebot on a machine with a load of 35 on 2 cores.
const defaultCommandTimeout = 5 * time.Second

// The healthy engines get healthyTime: a loss on time there is a defect, not the noise of a
// shared machine.
const (
	fakeTime    = "st=0.25"
	healthyTime = "st=10"
	lateAnswer  = 700 * time.Millisecond
)

// stallChance keeps the stalls a few in a hundred games, whether they strike a move or a game.
var stallChance = map[string]float64{"play": 0.01, "newgame": 0.2}

// fake is one fake engine of the mix: its name, how it misbehaves, and what SIGINT does to
// it ("" kills it; "ignore" makes a hang or a late answer outlast the arbiter's interrupt).
type fake struct {
	name     string
	faults   []uhpfake.Fault
	onSIGINT string
}

// fakes is the mix hivebot plays: one engine per family of faults, so that a record's
// culprit tells which family struck, and one that behaves. Each fault strikes at random, a
// few times in a hundred moves, as uhpfake's Chance draws it from the seed and the position.
//
// The staller hangs on stallOn: "play" (any move, the last one too) or "newgame". A
// distributed soak needs "newgame": an engine that fails to play the move that ended the game
// is blamed for the game by the runner but not by the coordinator's referee, which rejects
// the result, and the pair, played again, ends the same way for ever (see docs/endurance.md).
func fakes(stallOn string) []fake {
	floodLine := "info " + strings.Repeat("flood ", 10)
	return []fake{
		{"crashy", []uhpfake.Fault{
			{Name: "crash", On: "bestmove", Chance: 0.015, Stderr: []string{"panic: the fake crashes"}, Then: "exit", Code: 2},
			{Name: "kill", On: "bestmove", Chance: 0.015, Then: "kill"},
		}, ""},
		{"hangy", []uhpfake.Fault{
			{Name: "hang", On: "bestmove", Chance: 0.02, Then: "hang"},
		}, "ignore"},
		{"staller", []uhpfake.Fault{
			{Name: "stall", On: stallOn, Chance: stallChance[stallOn], Then: "hang"},
		}, ""},
		{"late", []uhpfake.Fault{
			{Name: "late", On: "bestmove", Chance: 0.03, Delay: lateAnswer},
		}, "ignore"},
		{"flood", []uhpfake.Fault{
			{Name: "flood-stdout", On: "bestmove", Chance: 0.02, Print: []string{floodLine}, Repeat: 2000},
			{Name: "flood-stderr", On: "bestmove", Chance: 0.02, Stderr: []string{floodLine}, Repeat: 20000},
			{Name: "long-line", On: "bestmove", Chance: 0.01, Print: []string{strings.Repeat("x", 64)}, Repeat: 20000, NoEOL: true},
		}, ""},
		{"leaky", []uhpfake.Fault{
			{Name: "leak", On: "bestmove", Chance: 0.05, Leak: 256 << 10},
		}, ""},
		{"steady", nil, ""},
	}
}

// engineArgs are the arbiter's -engine groups for hivebot and the fakes. Hivebot searches to
// depth 1 under a clock of seconds per move: it answers in milliseconds, so a time loss of its
// is a defect. The fakes are the soak binary itself (uhpfake.Main runs first in main), each
// with its faults, a salt that makes its moves a function of the position, and the log in
// which every fault it injects is counted.
//
// A worker's -engine may say only where an engine is (worker true): its program and
// environment; the run's settings come from the coordinator.
func engineArgs(hivebot, self, faultLog, stallOn string, seed uint64, worker bool) []string {
	args := []string{"-engine", "name=hivebot", "cmd=" + hivebot}
	if !worker {
		args = append(args, healthyTime, "option.MaxDepth=1", "option.TranspositionTableSizeMB=1")
	}
	for i, f := range fakes(stallOn) {
		cfg := uhpfake.Config{
			ID:       "uhpfake " + f.name,
			Salt:     fmt.Sprintf("soak-%s-%d", f.name, seed),
			Seed:     seed*31 + uint64(i),
			Faults:   f.faults,
			OnSIGINT: f.onSIGINT,
			FaultLog: faultLog,
		}
		args = append(args, "-engine", "name="+f.name, "cmd="+self, "env="+uhpfake.Env(cfg))
		if !worker && healthy[f.name] {
			args = append(args, healthyTime)
		} else if !worker {
			args = append(args, fakeTime)
		}
	}
	return args
}
