package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"
)

// "submit tune" refuses, before it reaches any server, a tune its server would refuse: an
// engine whose protocol has no options, with the reason, as a usage error.
func TestSubmitTuneRefusals(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"gamestring", []string{"-creds", "nowhere.creds", "-param", "X,1,0,2,1,1", "-engine", "proto=gamestring", "cmd=" + os.Args[0], "st=1"},
			"its protocol (gamestring) has none: a one-engine player has no options to set"},
		{"no creds", []string{"-param", "X,1,0,2,1,1", "-engine", "cmd=" + os.Args[0], "depth=1"}, "-creds FILE is required"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		args := append([]string{"submit", "tune", "-iterations", "2"}, tt.args...)
		err := run(context.Background(), args, io.Discard, &stderr)
		if code := exitCode(err, &stderr); code != exitUsage || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%s: exit %d, %s; want %d and %q", tt.name, code, stderr.String(), exitUsage, tt.want)
		}
	}
}
