package hivebot

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/rules"
)

// perftUnbounded is the deepest "perft" without a depth goes before giving up on being
// interrupted.
const perftUnbounded = 64

// Perft counts the move tree of the current position to each depth from 0 to depth, one line
// per depth in Mzinga's format, until done or ctx ends. A depth of -1 (no depth given) goes on
// until ctx ends.
func (e *Engine) Perft(ctx context.Context, depth int, line func(string)) error {
	if e.game == nil {
		return errNoGame
	}
	switch {
	case depth == -1:
		depth = perftUnbounded
	case depth < 0:
		return &uhpserver.Error{Message: fmt.Sprintf("Unable to calculate perft(%d).", depth)}
	}
	p := perfter{board: e.game.Board(), done: ctx.Done(), buffers: make([][]rules.Move, depth+1)}
	for d := 0; d <= depth; d++ {
		start := time.Now()
		nodes := p.count(d)
		if p.stopped {
			return nil
		}
		line(perftLine(d, nodes, time.Since(start)))
	}
	return nil
}

// perftLine formats a result as Mzinga's "{0,-9} = {1,16:#,##0} in {2,16:#,##0} ms.
// {3,8:#,##0.0} KN/s".
func perftLine(depth int, nodes uint64, elapsed time.Duration) string {
	ms := float64(elapsed) / float64(time.Millisecond)
	rate := math.Inf(1)
	if ms > 0 {
		rate = float64(nodes) / ms
	}
	rateText := "Infinity"
	if !math.IsInf(rate, 1) {
		tenths := uint64(math.Round(rate * 10))
		rateText = groupThousands(tenths/10) + "." + strconv.FormatUint(tenths%10, 10)
	}
	return fmt.Sprintf("%-9s = %16s in %16s ms. %8s KN/s", "perft("+strconv.Itoa(depth)+")",
		groupThousands(nodes), groupThousands(uint64(elapsed.Milliseconds())), rateText)
}

// groupThousands writes n with comma thousands separators, as .NET's "#,##0" does.
func groupThousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// perfter counts move trees with the fast board and stops when done is closed.
type perfter struct {
	board   *rules.Board
	done    <-chan struct{}
	buffers [][]rules.Move
	nodes   uint64
	stopped bool
}

func (p *perfter) count(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	p.nodes++
	if p.nodes%4096 == 0 {
		select {
		case <-p.done:
			p.stopped = true
		default:
		}
	}
	if p.stopped {
		return 0
	}
	moves := p.board.GenerateMoves(p.buffers[depth][:0])
	p.buffers[depth] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		p.board.Apply(m)
		n += p.count(depth - 1)
		p.board.Undo()
	}
	return n
}
