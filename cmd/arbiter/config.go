package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"hivearbiter/configs"
	"hivearbiter/internal/cli"
)

const configUsage = `config list | config show NAME

Prints the example configurations built into the arbiter (the files of configs/ in its source),
so that one can be copied after "go install": arbiter config show match > my-match.toml`

func runConfig(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("config", configUsage, stderr)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() == 1 && fs.Arg(0) == "list":
		for _, n := range configs.ExampleNames() {
			fmt.Fprintln(stdout, n)
		}
		return nil
	case fs.NArg() == 2 && fs.Arg(0) == "show":
		data, err := configs.Example(fs.Arg(1))
		if err != nil {
			return cli.Usage(fmt.Errorf("config show %s: %w", fs.Arg(1), err))
		}
		_, err = stdout.Write(data)
		return err
	}
	return cli.Usage(errors.New("config: want \"config list\" or \"config show NAME\" (see arbiter config -h)"))
}
