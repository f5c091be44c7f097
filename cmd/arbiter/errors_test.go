package main

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/ci"
	"hivearbiter/configs"
	"hivearbiter/internal/cli"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// TestErrorMessages: the command shows each problem once after "arbiter: ", in the words of
// the error's type, without the package names that tell a programmer where it came from; an
// error of no such type is shown whole.
func TestErrorMessages(t *testing.T) {
	_, rulesErr := rules.ParseGameString("Base+MLP;Bogus;White[1]")
	tests := []struct {
		name string
		err  error
		code int
		want string
	}{
		{"a usage error of several problems", cli.UsageError{Err: errors.Join(
			&configs.Error{Flag: "-rounds", Msg: "0: want 1 or more"},
			&driver.ConfigError{Msg: "an SPRT compares exactly 2 engines, not 3"},
			&configs.Error{File: "x.toml", Line: 3, Key: "games", Msg: "3: want 2 (a game pair, colours swapped) or 1"},
		)}, ci.ExitUsage, "arbiter: -rounds 0: want 1 or more\narbiter: an SPRT compares exactly 2 engines, not 3\narbiter: x.toml:3: games: 3: want 2 (a game pair, colours swapped) or 1\n"},
		{"a locked file", cli.UsageError{Err: &results.LockedError{Path: "g.jsonl"}}, ci.ExitUsage,
			"arbiter: g.jsonl is being written by another run of the arbiter: wait for it to end, or give this run a file of its own\n"},
		{"the rules", cli.UsageError{Err: rulesErr}, ci.ExitUsage, "arbiter: GameString entry 1 (\"Bogus\"): \"Bogus\" is not a game state (want NotStarted, InProgress, Draw, WhiteWins or BlackWins)\n"},
		{"an engine that does not start", cli.Exit(ci.ExitEngines, "%v", &arbiter.EngineStartError{Engine: "e", Err: errors.New("exit status 3")}), ci.ExitEngines,
			"arbiter: engine \"e\" could not be started: exit status 3\n"},
		{"a wrapped error is shown whole", fmt.Errorf("reading: %w", &results.RatingsError{Msg: "x"}), ci.ExitFailure, "arbiter: reading: results: x\n"},
	}
	for _, tc := range tests {
		var stderr bytes.Buffer
		if code := exitCode(tc.err, &stderr); code != tc.code || stderr.String() != tc.want {
			t.Errorf("%s: exit %d, printed %q; want %d, %q", tc.name, code, stderr.String(), tc.code, tc.want)
		}
	}
}
