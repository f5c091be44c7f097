package hivebot

import (
	"context"
	"io"
)

// Main is the command line of hivebot (cmd/hivebot/hivebotcmd.Main), which imports this
// package: main_hook_test.go, of the external test package, sets it before the tests run, so
// that the tests of the conversation start hivebot as its users do.
var Main func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int
