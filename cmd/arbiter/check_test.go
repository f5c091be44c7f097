package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestCheckCompliantEngine(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := append([]string{"check", "-games", "2", "-plies", "12"}, fakeEngineArgs("fake", "random")...)
	err := run(context.Background(), args, &stdout, &stderr)
	if err != nil {
		t.Fatalf("check failed: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"newgame Base+MLP", "validmoves against the referee", "play and undo round trip",
		"bestmove time 00:00:01", "illegal move answered with invalidmove", "unknown command answered with err", "All "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "FAIL") {
		t.Errorf("a compliant engine failed a check:\n%s", out)
	}
}

func TestCheckFindsWrongValidMoves(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := append([]string{"check", "-games", "1", "-plies", "4"}, fakeEngineArgs("fake", "bad-validmoves")...)
	err := run(context.Background(), args, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != exitEngines {
		t.Fatalf("exit code %d, want %d\n%s", code, exitEngines, stdout.String())
	}
	if !strings.Contains(stdout.String(), "FAIL") || !strings.Contains(stdout.String(), "the referee has") {
		t.Errorf("output does not show the failed check:\n%s", stdout.String())
	}
}
