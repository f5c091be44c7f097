package main

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"
)

// TestCompletion: the completion scripts know every listed command, each command's flags as its
// own flag set defines them, and the keys of -engine and -each with the registered protocols
// and the bundled engine. (internal/cli's tests run the bash script itself.)
func TestCompletion(t *testing.T) {
	c := arbiterProgram.Completion(context.Background(), arbiterProgram.CompletionWords())
	flags := map[string][]string{}
	for _, cmd := range c.Commands {
		flags[cmd.Name] = []string{}
		for _, f := range cmd.Flags {
			flags[cmd.Name] = append(flags[cmd.Name], f.Name)
		}
	}
	for _, cmd := range arbiterProgram.Commands {
		if _, listed := flags[cmd.Name]; listed == cmd.Hidden {
			t.Errorf("command %s: listed %v, hidden %v", cmd.Name, listed, cmd.Hidden)
		}
	}
	if got := strings.Join(flags["check"], " "); got != "concurrency engine games junit plies quick searches seed start-timeout transcript v" {
		t.Errorf("check's flags: %s", got)
	}
	for _, f := range []string{"engine", "each", "openings", "sprt", "out", "pgnout", "concurrency", "listen", "junit", "summary"} {
		if !slices.Contains(flags["match"], f) {
			t.Errorf("match's flags lack -%s: %v", f, flags["match"])
		}
	}
	engine := c.Words["engine"]
	for _, w := range []string{"cmd=", "name=", "tc=", "option.", "proto=uhp", "proto=hiveapi", "builtin=hivebot", "transport=stdio", "fractional=true"} {
		if !slices.Contains(engine, w) {
			t.Errorf("-engine's words lack %s: %v", w, engine)
		}
	}
	if !slices.Equal(c.Words["each"], engine) {
		t.Errorf("-each's words %v differ from -engine's", c.Words["each"])
	}
	var zsh bytes.Buffer
	if err := run(context.Background(), []string{"completion", "zsh"}, &zsh, io.Discard); err != nil || !strings.Contains(zsh.String(), "compdef _arbiter arbiter") {
		t.Errorf("arbiter completion zsh: %v\n%s", err, zsh.String())
	}
}
