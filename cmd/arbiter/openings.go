package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"hivearbiter/arbiter/driver"
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

// openingsSettings are the flags of "openings generate".
type openingsSettings struct {
	gameType            string
	plies, count, depth int
	band, candidates    int
	seed                uint64
	playout, balance    bool
	engine, out         string
}

func runOpenings(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("openings", openingsUsage, stderr)
	var s openingsSettings
	fs.StringVar(&s.gameType, "game-type", rules.BaseMLP.String(), "generate: game type of the positions")
	fs.IntVar(&s.plies, "plies", 4, "generate: random legal plies to each position")
	fs.IntVar(&s.count, "count", 100, "generate: positions in the book, at most")
	fs.Uint64Var(&s.seed, "seed", 1, "generate: seed of the random plies and the book's order")
	fs.IntVar(&s.depth, "depth", 3, "generate: search depth of the evaluation (hivebot's, or -engine's)")
	fs.IntVar(&s.band, "band", 50, "generate: keep positions evaluated within [-band, band] from White's point of view")
	fs.IntVar(&s.candidates, "candidates", 0, "generate: positions drawn and evaluated (default 10 per position of the book)")
	fs.BoolVar(&s.playout, "playout", false, "generate: evaluate by hivebot's game against itself at -depth (+100 White wins, 0 draw, -100 Black wins), not by its search")
	fs.BoolVar(&s.balance, "balance", false, "generate: keep as many positions scored for White as for Black")
	fs.StringVar(&s.engine, "engine", "", "generate: evaluate by the game this UHP `program` (and arguments, split on spaces) plays against itself at -depth")
	fs.StringVar(&s.out, "out", "", "generate: write the book to this `file` (default standard output)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() == 1 && fs.Arg(0) == "generate":
		return s.generate(ctx, stdout, stderr)
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

// generate makes the book the settings say.
func (s *openingsSettings) generate(ctx context.Context, stdout, stderr io.Writer) error {
	gameType, err := rules.ParseGameType(s.gameType)
	if err != nil {
		return cli.Usage(err)
	}
	ev, closeEngine, err := s.evaluator(ctx)
	if err != nil {
		return err
	}
	defer closeEngine()
	cfg := openings.GenerateConfig{GameType: gameType, Plies: s.plies, Count: s.count, Seed: s.seed, Band: s.band, Candidates: s.candidates, Balance: s.balance}
	book, err := openings.Generate(ctx, cfg, ev)
	if errors.Is(err, openings.ErrGenerateConfig) {
		return cli.Usage(err)
	} else if err != nil {
		return err
	}
	header := []string{
		fmt.Sprintf("Hive opening book: %d %s positions after %d plies, distinct up to symmetry.", len(book.Positions), gameType, s.plies),
		"Made by: " + s.command(gameType),
		"Evaluated by " + ev.Describe() + fmt.Sprintf("; kept within [-%d, %d].", s.band, s.band),
		fmt.Sprintf("Chosen from %d distinct positions, %d within the band, in %d groups of placed bugs.", book.Distinct, book.InBand, book.Groups),
	}
	if book.Exhausted {
		header = append(header, "The draw ran out of new positions before it had as many candidates as asked.")
	}
	if s.out == "" {
		return book.Write(stdout, header)
	}
	var sb strings.Builder
	if err := book.Write(&sb, header); err != nil {
		return err
	}
	if err := os.WriteFile(s.out, []byte(sb.String()), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "arbiter: wrote %d openings to %s (%d distinct candidates, %d within the band)\n", len(book.Positions), s.out, book.Distinct, book.InBand)
	return nil
}

// evaluator is hivebot's search, or the -engine program started now; the function it returns
// stops that engine.
func (s *openingsSettings) evaluator(ctx context.Context) (openings.Evaluator, func(), error) {
	if s.engine == "" && s.playout {
		ev, err := evaluate.NewPlayout(s.depth, 0)
		if err != nil {
			return nil, nil, cli.Usage(err)
		}
		return ev, func() {}, nil
	}
	if s.engine == "" {
		ev, err := evaluate.NewSearch(s.depth)
		if err != nil {
			return nil, nil, cli.Usage(err)
		}
		return ev, func() {}, nil
	}
	if s.depth < 1 {
		return nil, nil, cli.Usage(fmt.Errorf("-depth %d: want 1 or more", s.depth))
	}
	// The engine is started as a match starts one, through its protocol (UHP, the default):
	// -engine gives its program and arguments alone.
	e, err := driver.Start(ctx, driver.EngineConfig{Command: strings.Fields(s.engine)}, driver.StartEnv{})
	if err != nil {
		return nil, nil, err
	}
	return &evaluate.Engine{Player: e, Depth: s.depth}, func() { e.Close(context.WithoutCancel(ctx)) }, nil
}

// command is the command line that makes the same book.
func (s *openingsSettings) command(gameType rules.GameType) string {
	c := fmt.Sprintf("arbiter openings generate -game-type %s -plies %d -count %d -seed %d -depth %d -band %d", gameType, s.plies, s.count, s.seed, s.depth, s.band)
	if s.playout {
		c += " -playout"
	}
	if s.balance {
		c += " -balance"
	}
	if s.candidates > 0 {
		c += fmt.Sprintf(" -candidates %d", s.candidates)
	}
	if s.engine != "" {
		c += " -engine " + cli.QuoteArgs([]string{s.engine})
	}
	return c
}
