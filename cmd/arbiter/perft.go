package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"hivearbiter/internal/cli"
	"hivearbiter/rules"
)

const perftUsage = `perft [-depth N] [GameTypeString|GameString]

Counts the leaf nodes of the move tree of a position, depth by depth, as Mzinga's perft does
(a finished game has no children; a forced pass is one move), and prints the count, the time
and the speed. The default position is the start of Base+MLP.`

func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("perft", perftUsage, stderr)
	depth := fs.Int("depth", 5, "deepest depth to count")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *depth < 0 {
		return cli.Usage(errors.New("-depth must be at least 0"))
	}
	position := strings.Join(fs.Args(), " ")
	if position == "" {
		position = rules.BaseMLP.String()
	}
	game, err := rules.ParseGameString(position)
	if err != nil {
		return cli.Usage(err)
	}
	fmt.Fprintln(stdout, game.GameString())
	board := game.Board()
	for d := 0; d <= *depth; d++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		nodes := board.Perft(d)
		elapsed := time.Since(start)
		rate := float64(nodes) / max(elapsed.Seconds(), 1e-9) / 1e6
		fmt.Fprintf(stdout, "perft(%d) = %15d  in %10.3f s  %8.1f Mnodes/s\n", d, nodes, elapsed.Seconds(), rate)
	}
	return nil
}
