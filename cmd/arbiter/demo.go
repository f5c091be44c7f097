package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"hivearbiter/configs"
	"hivearbiter/internal/cli"
)

const demoUsage = `demo [-keep DIR]

Plays the embedded default: a short Base+MLP match between two strength profiles of the bundled
engine, hivebot, run as real UHP subprocesses from this binary. "arbiter" with no arguments
runs it. The records go to a fresh temporary directory unless -keep names one.`

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("demo", demoUsage, stderr)
	keep := fs.String("keep", "", "write the records and PGN of the demo to this `dir`")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	cfg, err := configs.LoadExample(configs.DefaultName, builtinResolver)
	if err != nil {
		return err
	}
	dir := *keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "hive-arbiter-demo-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cfg.Out = filepath.Join(dir, "demo.jsonl")
	cfg.PGNOut = filepath.Join(dir, "demo.pgn")
	fmt.Fprintln(stdout, "Hive Arbiter demo: hivebot (strong profile) against hivebot (weak profile), Base+MLP, game pairs on a 6+0.1 clock.")
	hint := "" // a temporary directory is gone when the demo ends: nothing to resume
	if *keep != "" {
		hint = "arbiter demo -keep " + cli.QuoteArgs([]string{dir})
	}
	if err := playTournament(ctx, cfg, hint, stdout); err != nil {
		return err
	}
	if *keep == "" {
		fmt.Fprintln(stdout, "(The demo's records and PGN were in a temporary directory, removed now; \"arbiter demo -keep DIR\" keeps them.)")
	}
	fmt.Fprint(stdout, `
To run a real match against your own engine:
  arbiter match -engine cmd=./my-engine name=mine -engine builtin=hivebot name=hivebot \
                -each tc=10+0.1 -rounds 20 -concurrency 2 -out mine.jsonl -pgnout mine.pgn
or start from an example configuration: arbiter config show match > my-match.toml
  and run: arbiter match -config my-match.toml
Check an engine's UHP compliance first with: arbiter check -engine "./my-engine"
`)
	return nil
}
