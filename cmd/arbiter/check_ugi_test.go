package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestCheckUGI checks the bundled engine over UGI: every check passes.
func TestCheckUGI(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := []string{"check", "-games", "2", "-plies", "12", "-engine", "builtin=hivebot", "proto=ugi", "arg=-profile", "arg=weak"}
	err := run(context.Background(), args, &stdout, &stderr)
	if err != nil {
		t.Fatalf("check failed: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"ugi: id lines and ugiok", "game types accepted by position", "query p1turn, gameover, result",
		"info error", "go movetime 500", "within Black's time", "go infinite", "bestmove pass", "All "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	t.Log("\n" + out)
}
