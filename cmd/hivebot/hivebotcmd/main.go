package hivebotcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"hivearbiter/enginekit/hivebot"
	"hivearbiter/enginekit/search"
	"hivearbiter/rules"
)

const usage = `usage: hivebot [flags]
       hivebot bench [flags]

hivebot is a Hive engine that speaks the Universal Hive Protocol (UHP) on standard
input and output, or the Universal Game Interface (UGI) when its first command is
"ugi". Ctrl-C (SIGINT) stops a running bestmove or perft, which then answers at
once; "exit" ("quit" in UGI) or the end of input ends the engine. "hivebot bench"
searches a fixed set of positions and prints the node count and speed (see hivebot
bench -h).

Flags:
`

// Main runs hivebot with command-line arguments args (without the program name) on the given
// streams, and returns the exit status: 0 after "exit" or the end of input, 2 for bad flags,
// 1 if the conversation broke (output failed, or ctx ended).
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "bench" {
		return runBench(ctx, args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("hivebot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	profile := fs.String("profile", hivebot.Strong.String(), "strength: random, weak (2 plies), medium (3 plies) or strong (iterative deepening to the time limit)")
	depth := fs.Int("depth", 0, "cap every search at this many plies (0: no cap)")
	hash := fs.Int("hash", 0, fmt.Sprintf("transposition table size in MB (0: %d)", search.DefaultHashMB))
	threads := fs.Int("threads", 1, "search threads, sharing the transposition table")
	seed := fs.Uint64("seed", 0, "seed for the random profile (0: from the clock)")
	benchDepth := fs.Int("bench-depth", hivebot.DefaultBenchDepth, "depth of the UHP command bench when it is given none")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "hivebot: unexpected arguments %q\n", fs.Args())
		fs.Usage()
		return 2
	}
	p, err := hivebot.ParseProfile(*profile)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if *depth < 0 || *hash < 0 || *threads < 1 || *benchDepth < 1 || *benchDepth > hivebot.MaxDepth {
		fmt.Fprintf(stderr, "hivebot: -depth and -hash must not be negative, -threads must be at least 1, -bench-depth from 1 to %d\n", hivebot.MaxDepth)
		return 2
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	engine := hivebot.New(hivebot.Config{Profile: p, MaxDepth: *depth, HashMB: *hash, Threads: *threads, Seed: *seed, BenchDepth: *benchDepth})
	if err := hivebot.Serve(ctx, engine, stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "hivebot: %v\n", err)
		return 1
	}
	return 0
}

const benchUsage = `usage: hivebot bench [flags]

Searches a fixed set of positions to a fixed depth, one line per position, then prints
the totals as key=value fields. On one thread the node count is the same on every run of
a build and changes when the search changes: compare it before and after a change, and
compare nodes/s on the same machine.

Flags:
`

// runBench is "hivebot bench".
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hivebot bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	depth := fs.Int("depth", hivebot.DefaultBenchDepth, "search depth in plies")
	threads := fs.Int("threads", 1, "search threads")
	fs.Usage = func() {
		fmt.Fprint(stderr, benchUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 || *depth < 1 || *depth > hivebot.MaxDepth || *threads < 1 || *threads > search.MaxThreads {
		fmt.Fprintf(stderr, "hivebot bench: want -depth 1 to %d, -threads 1 to %d and no arguments\n", hivebot.MaxDepth, search.MaxThreads)
		return 2
	}
	res, err := hivebot.Bench(ctx, *depth, *threads, func(i int, g *rules.Game, r search.Result) {
		fmt.Fprintf(stdout, "position %d/%d: %s %d nodes %d ms (%s)\n", i+1, hivebot.BenchPositions(),
			g.MoveString(r.Move), r.Nodes, r.Time.Milliseconds(), g.TurnString())
	})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintln(stdout, res)
	return 0
}
