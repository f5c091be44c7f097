package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"hivearbiter/internal/cli"
	"hivearbiter/openings"
	"hivearbiter/openings/evaluate"
	"hivearbiter/rules"
)

const openingsUsage = `openings generate [flags] | openings list | openings show NAME

"generate" builds an opening book: random positions after -plies plies, distinct up to
symmetry, each evaluated by hivebot's search at -depth (with -playout, by the game hivebot
plays from it against itself at -depth; with -engine, by the game that UHP engine plays), those
within -band of equality kept and spread round-robin over the bugs each side has placed and the
shapes they make (with -balance, as many scored for White as for Black). It writes one
GameString per line with its evaluation in a comment, under a header giving the command that
made it. The same flags give the same book.

"list" names the books built into the arbiter, "show NAME" prints one; a match plays one with
-openings book=NAME.`

func runOpenings(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("openings", openingsUsage, stderr)
	var s evaluate.BookSettings
	gameType := fs.String("game-type", rules.BaseMLP.String(), "generate: game type of the positions")
	fs.IntVar(&s.Plies, "plies", 4, "generate: random legal plies to each position")
	fs.IntVar(&s.Count, "count", 100, "generate: positions in the book, at most")
	fs.Uint64Var(&s.Seed, "seed", 1, "generate: seed of the random plies and the book's order")
	fs.IntVar(&s.Depth, "depth", 3, "generate: search depth of the evaluation (hivebot's, or -engine's)")
	fs.IntVar(&s.Band, "band", 50, "generate: keep positions evaluated within [-band, band] from White's point of view")
	fs.IntVar(&s.Candidates, "candidates", 0, "generate: positions drawn and evaluated (default 10 per position of the book)")
	fs.BoolVar(&s.Playout, "playout", false, "generate: evaluate by hivebot's game against itself at -depth (+100 White wins, 0 draw, -100 Black wins), not by its search")
	fs.BoolVar(&s.Balance, "balance", false, "generate: keep as many positions scored for White as for Black")
	fs.StringVar(&s.Engine, "engine", "", "generate: evaluate by the game this UHP `program` (and arguments, split on spaces) plays against itself at -depth")
	out := fs.String("out", "", "generate: write the book to this `file` (default standard output)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() == 1 && fs.Arg(0) == "generate":
		return writeBook(ctx, s, *gameType, *out, stdout, stderr)
	case fs.NArg() == 1 && fs.Arg(0) == "list":
		for _, n := range openings.BookNames() {
			fmt.Fprintln(stdout, n)
		}
		return nil
	case fs.NArg() == 2 && fs.Arg(0) == "show":
		data, err := openings.ReadBook(fs.Arg(1))
		if err != nil {
			return cli.Usage(err)
		}
		_, err = stdout.Write(data)
		return err
	}
	return cli.Usage(errors.New("openings: want \"openings generate\", \"openings list\" or \"openings show NAME\" (see arbiter openings -h)"))
}

// writeBook makes the book the settings say and writes it to out (standard output if "").
func writeBook(ctx context.Context, s evaluate.BookSettings, gameType, out string, stdout, stderr io.Writer) error {
	var err error
	if s.GameType, err = rules.ParseGameType(gameType); err != nil {
		return cli.Usage(err)
	}
	book, header, err := evaluate.GenerateBook(ctx, s)
	if errors.As(err, new(*evaluate.SettingsError)) || errors.Is(err, openings.ErrGenerateConfig) {
		return cli.Usage(err)
	} else if err != nil {
		return err
	}
	if out == "" {
		return book.Write(stdout, header)
	}
	var sb strings.Builder
	if err := book.Write(&sb, header); err != nil {
		return err
	}
	if err := os.WriteFile(out, []byte(sb.String()), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "arbiter: wrote %d openings to %s (%d distinct candidates, %d within the band)\n", len(book.Positions), out, book.Distinct, book.InBand)
	return nil
}
