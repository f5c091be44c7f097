package main

import (
	"context"
	"io"
	"os"

	"hivearbiter/cmd/hivebot/hivebotcmd"
	"hivearbiter/internal/cli"
)

// runHivebot runs the bundled engine on standard input and output. It is how "builtin=hivebot"
// engines start: "<this binary> hivebot [flags]", so no second binary needs to be built.
func runHivebot(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if code := hivebotcmd.Main(ctx, args, os.Stdin, stdout, stderr); code != 0 {
		return &cli.ExitError{Code: code}
	}
	return nil
}
