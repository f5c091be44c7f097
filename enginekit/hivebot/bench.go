package hivebot

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"hivearbiter/enginekit/search"
	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/rules"
)

// benchPositions are what bench searches: the start, and positions 8 to 63 plies into four
// games of the Online Hive World Championships (Mzinga's Board_ValidMovesFromRealGamesTest).
var benchPositions = []string{
	`Base+MLP`,
	`Base+MLP;InProgress;White[5];wB1;bG1 -wB1;wQ wB1\;bL -bG1;wQ bG1\;bQ /bL;wB1 bG1;bM \bQ`,
	`Base+MLP;InProgress;White[9];wG1;bL /wG1;wM wG1/;bM /bL;wA1 wM\;bQ bL\;wQ \wM;bP /bQ;wP /wQ;bA1 -bP;wM bQ\;bM wA1\;wB1 wQ\;bA2 /bP;wB2 wM-;bA1 wB2\`,
	`Base+MLP;InProgress;Black[9];wL;bG1 /wL;wQ wL-;bL /bG1;wA1 wQ/;bQ -bL;wA2 wA1-;bM bQ/;wS1 \wQ;bP \bQ;wS1 \bM;bA1 bL-;wA2 bA1\;bL \wQ;wA1 bQ\;bA2 bL/;wP wQ-`,
	`Base+MLP;InProgress;Black[12];wB1;bG1 -wB1;wQ wB1\;bL -bG1;wQ bG1\;bQ /bL;wB1 bG1;bM \bQ;wA1 wB1/;bA1 \bL;wA1 bQ\;bA1 wQ-;wM /wA1;bM /wQ;wM -bQ;bL wQ/;wP \wB1;bP bM\;wB2 /wA1;bA2 bL-;wP \bL;bL wQ\;wA2 -wP`,
	`Base+MLP;InProgress;White[16];wG1;bL /wG1;wM wG1/;bM /bL;wA1 wM\;bQ bL\;wQ \wM;bP /bQ;wP /wQ;bA1 -bP;wM bQ\;bM wA1\;wB1 wQ\;bA2 /bP;wB2 wM-;bA1 wB2\;wB1 wG1;bA2 wQ-;wB1 bL;bB1 bA2/;bP wM\;bB1 wQ/;wL /wP;bA1 -wL;wG2 -wQ;bA2 -wG2;wG3 wA1/;bM wG3-;wA2 wB2-;bA1 wA2/`,
	`Base+MLP;InProgress;Black[17];wL;bG1 /wL;wQ wL-;bL /bG1;wA1 wQ/;bQ -bL;wA2 wA1-;bM bQ/;wS1 \wQ;bP \bQ;wS1 \bM;bA1 bL-;wA2 bA1\;bL \wQ;wA1 bQ\;bA2 bL/;wP wQ-;bA3 \bL;wA3 wS1/;bA3 \wA3;wB1 /wA1;bB1 -bQ;wB1 wA1;bB2 \bL;wS2 wP\;bB2 bL;wS2 bA1-;bA2 wA2\;wB2 /wB1;bB2 wL;wB1 bQ;bB1 wB1;wB2 /bB1`,
	`Base+MLP;InProgress;Black[21];wB1;bL /wB1;wQ wB1-;bQ -bL;wA1 \wB1;bM bQ\;wA1 bM\;bA1 /bQ;wA2 wA1-;bA1 wA2\;wM \wQ;bP /bQ;wA3 -wM;bA2 -bP;wA3 -bA2;bA3 /bP;wM wB1;bB1 -bQ;wM bL;bS1 /bA1;wP wQ\;bS1 -wA1;wB2 /wQ;bQ bB1/;wM bM;bS2 bQ/;wB2 bL;bS2 \wQ;wS1 /wP;bA3 /wA1;wB1 bS2;bS1 /wA3;wG1 wM-;bB2 bA1-;wS2 -wQ;bB2 wS1\;wG1 /bA3;bB2 wS1;wP wQ-;bG1 bB2-;wP wQ/`,
	`Base+MLP;InProgress;White[24];wG1;bL /wG1;wM wG1/;bM /bL;wA1 wM\;bQ bL\;wQ \wM;bP /bQ;wP /wQ;bA1 -bP;wM bQ\;bM wA1\;wB1 wQ\;bA2 /bP;wB2 wM-;bA1 wB2\;wB1 wG1;bA2 wQ-;wB1 bL;bB1 bA2/;bP wM\;bB1 wQ/;wL /wP;bA1 -wL;wG2 -wQ;bA2 -wG2;wG3 wA1/;bM wG3-;wA2 wB2-;bA1 wA2/;wL bQ/;bP /wA2;wS1 /wP;bA3 bM/;wS1 /bQ;bP wM\;wB1 bQ;bB1 wQ;bP wL\;bL /wP;wM bP;bS1 /bL;wA3 /wM;bG1 \bA1;wB1 bL\;bL wG2/`,
}

// Bench settings. The table size is fixed, not the engine's, because it changes the tree.
const (
	DefaultBenchDepth = 5
	benchHashMB       = 16
)

// BenchResult is the outcome of a bench run.
type BenchResult struct {
	Positions, Depth, Threads int
	Nodes                     int64
	Time                      time.Duration
}

// NodesPerSecond is the search speed over the whole run.
func (r BenchResult) NodesPerSecond() int64 {
	if r.Time <= 0 {
		return 0
	}
	return int64(float64(r.Nodes) / r.Time.Seconds())
}

// String is the summary line, which is also the reply to the UHP command "bench": space
// separated key=value fields, nodes first.
func (r BenchResult) String() string {
	return fmt.Sprintf("nodes=%d time=%d nps=%d depth=%d positions=%d threads=%d",
		r.Nodes, r.Time.Milliseconds(), r.NodesPerSecond(), r.Depth, r.Positions, r.Threads)
}

// Bench searches each bench position to depth, from an empty table each time, and reports
// every search to progress (if not nil). On one thread the node count depends only on the
// build: it is the search's signature, and it changes when the search does. It returns
// ctx's error if ctx ends first.
func Bench(ctx context.Context, depth, threads int, progress func(i int, game *rules.Game, res search.Result)) (BenchResult, error) {
	s := search.New(search.Options{HashMB: benchHashMB, Threads: threads})
	out := BenchResult{Positions: len(benchPositions), Depth: depth, Threads: s.Threads()}
	for i, gs := range benchPositions {
		g, err := rules.ParseGameString(gs)
		if err != nil {
			return out, fmt.Errorf("hivebot: bench position %d: %w", i+1, err)
		}
		s.Clear()
		res := s.Search(ctx, g.Board(), search.Limits{Depth: depth})
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("hivebot: bench interrupted: %w", err)
		}
		out.Nodes += res.Nodes
		out.Time += res.Time
		if progress != nil {
			progress(i, g, res)
		}
	}
	return out, nil
}

// Commands implements uhpserver.Commander: hivebot adds "bench".
func (e *Engine) Commands() []uhpserver.Command {
	return []uhpserver.Command{{Name: "bench", Help: "bench [N]\n" +
		"  Searches a fixed set of positions to depth N (" + strconv.Itoa(e.bench) + " by default) with the Threads option\n" +
		"  and prints nodes=NODES time=MS nps=NODES_PER_SECOND depth=N positions=P threads=T.\n" +
		"  With one thread the node count is the same on every run of a build."}}
}

// Command implements uhpserver.Commander.
func (e *Engine) Command(ctx context.Context, name string, args []string) (string, error) {
	if name != "bench" || len(args) > 1 {
		return "", &uhpserver.Error{Message: uhpserver.ErrInvalidCommand}
	}
	depth := e.bench
	if len(args) == 1 {
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 || n > maxDepthLimit {
			return "", &uhpserver.Error{Message: fmt.Sprintf("Unable to bench to depth %s.", args[0])}
		}
		depth = n
	}
	res, err := Bench(ctx, depth, e.searcher.Threads(), nil)
	if err != nil {
		return "", &uhpserver.Error{Message: err.Error()}
	}
	return res.String(), nil
}

// BenchPositions is how many positions Bench searches.
func BenchPositions() int { return len(benchPositions) }
