package search

import (
	"context"
	"slices"
	"time"

	"hivearbiter/rules"
)

// Score bounds. A win found ply plies from the root scores Mate-ply, so a faster win scores
// higher and a slower loss scores higher than a faster one.
const (
	Infinity = 32000
	Mate     = 31000
	// MateBound is the smallest score that is a proven win (and -MateBound the largest loss).
	MateBound = Mate - MaxPly
	// MaxPly is how deep a search may go, extensions and all.
	MaxPly = 100
)

// Limits bound a search. The zero value searches until the context is done.
type Limits struct {
	// Depth is the deepest iteration, in plies; 0 means no limit but MaxPly.
	Depth int
	// Nodes stops the search after about this many nodes; 0 means no limit.
	Nodes int64
}

// Result is the outcome of a search.
type Result struct {
	Move  rules.Move   // the move to play; NoMove only when the game is over
	Score int          // from the side to move's point of view
	Depth int          // the deepest iteration that completed
	PV    []rules.Move // the principal variation, starting with Move
	Nodes int64
	Time  time.Duration
}

// IsMate reports whether a score is a proven win or loss, and in how many plies.
func IsMate(score int) (plies int, ok bool) {
	switch {
	case score >= MateBound:
		return Mate - score, true
	case score <= -MateBound:
		return Mate + score, true
	}
	return 0, false
}

// Options configure a Searcher.
type Options struct {
	// HashMB is the size of the transposition table in megabytes.
	HashMB int
	// Aggression, from MinAggression to MaxAggression, weighs attack against mobility in
	// the evaluation; 0 means DefaultAggression.
	Aggression int
}

// DefaultHashMB is the transposition table size when none is given.
const DefaultHashMB = 32

// Searcher searches positions. It keeps its transposition table between searches; it is not
// safe for concurrent use.
type Searcher struct {
	tt         *table
	hashMB     int
	aggression int
	history    [rules.NumPieces][rules.NumCells]int32
	killers    [MaxPly + 1][2]rules.Move
	moves      [MaxPly + 1][]rules.Move // the move list of each ply, reused
	keys       [MaxPly + 1][]uint64     // sort keys of each ply's moves, reused
	pv         [MaxPly + 1][MaxPly + 1]rules.Move
	pvLen      [MaxPly + 1]int

	// per search
	board     *rules.Board
	path      []uint64 // position hashes from the last placement before the root to here
	nodes     int64
	nodeLimit int64
	stopAt    time.Time
	hasStop   bool
	ctx       context.Context
	stopped   bool
}

// New returns a Searcher.
func New(opts Options) *Searcher {
	mb := opts.HashMB
	if mb <= 0 {
		mb = DefaultHashMB
	}
	s := &Searcher{tt: newTable(mb), hashMB: mb}
	s.SetAggression(opts.Aggression)
	for i := range s.moves {
		s.moves[i] = make([]rules.Move, 0, 256)
		s.keys[i] = make([]uint64, 0, 256)
	}
	return s
}

// SetAggression sets the evaluation's aggression (0 for DefaultAggression; clamped to the
// range).
func (s *Searcher) SetAggression(a int) {
	if a == 0 {
		a = DefaultAggression
	}
	s.aggression = min(max(a, MinAggression), MaxAggression)
}

// HashMB returns the transposition table size in megabytes.
func (s *Searcher) HashMB() int { return s.hashMB }

// SetHashMB resizes (and so clears) the transposition table.
func (s *Searcher) SetHashMB(mb int) {
	if mb <= 0 {
		mb = DefaultHashMB
	}
	if mb != s.hashMB {
		s.tt = newTable(mb)
		s.hashMB = mb
	}
}

// Clear forgets everything learnt in earlier searches, so that the next search depends only
// on its position and limits: a fixed-depth search after Clear is deterministic.
func (s *Searcher) Clear() {
	s.tt.clear()
	s.history = [rules.NumPieces][rules.NumCells]int32{}
	s.killers = [MaxPly + 1][2]rules.Move{}
}

// timeReserve is how long before a context deadline the search stops, to leave time to
// unwind and answer.
func timeReserve(budget time.Duration) time.Duration {
	return min(max(budget/20, 2*time.Millisecond), 50*time.Millisecond)
}

// checkEvery is how many nodes pass between looks at the clock (a power of two).
const checkEvery = 256

// Search finds a move for the side to move by iterative deepening. It stops at the depth or
// node limit, when ctx is done, or a little before ctx's deadline, and then returns the best
// move of the deepest completed iteration (or a better one found in the unfinished one). It
// returns a legal move whenever one exists, however early it is stopped. The board is used
// as scratch and left as it was.
func (s *Searcher) Search(ctx context.Context, b *rules.Board, lim Limits) Result {
	start := time.Now()
	s.board, s.ctx, s.stopped, s.nodes = b, ctx, false, 0
	s.nodeLimit = lim.Nodes
	s.hasStop = false
	soft := time.Duration(0)
	if dl, ok := ctx.Deadline(); ok {
		budget := dl.Sub(start)
		s.stopAt, s.hasStop = dl.Add(-timeReserve(budget)), true
		soft = budget / 2
	}
	s.tt.newSearch()
	s.loadPath(b)
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > MaxPly-1 {
		maxDepth = MaxPly - 1
	}

	root := slices.Clone(b.GenerateMoves(nil))
	res := Result{Move: rules.NoMove}
	if len(root) == 0 {
		return res
	}
	s.orderMoves(root, s.keys[0][:0], 0, s.ttMove(b.Hash()))
	res.Move = root[0]
	res.PV = []rules.Move{root[0]}
	if len(root) == 1 {
		res.Time = time.Since(start)
		return res
	}
	nodesPerMove := make([]int64, len(root))
	scores := make([]int, len(root))

	for depth := 1; depth <= maxDepth; depth++ {
		best, score, complete := s.searchRoot(root, scores, nodesPerMove, depth)
		// In an unfinished iteration, best is set only once the first move (the previous
		// best) was searched in full, so it is at least as good as that move at this depth.
		if best != rules.NoMove {
			res.Move, res.Score = best, score
			res.PV = append(res.PV[:0], s.pv[0][:s.pvLen[0]]...)
		}
		if !complete {
			break
		}
		res.Depth = depth
		// Best move first, the rest by the size of their trees: a big tree means a move
		// that was hard to refute, a good candidate for the next iteration.
		i := slices.Index(root, best)
		root[0], root[i] = root[i], root[0]
		nodesPerMove[0], nodesPerMove[i] = nodesPerMove[i], nodesPerMove[0]
		sortByNodes(root[1:], nodesPerMove[1:])
		if _, mate := IsMate(score); mate {
			break
		}
		if s.hasStop && soft > 0 && time.Since(start) > soft {
			break
		}
	}
	res.Nodes = s.nodes
	res.Time = time.Since(start)
	return res
}

// sortByNodes sorts moves by descending node count, keeping the two slices in step.
func sortByNodes(moves []rules.Move, nodes []int64) {
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && nodes[j] > nodes[j-1]; j-- {
			moves[j], moves[j-1] = moves[j-1], moves[j]
			nodes[j], nodes[j-1] = nodes[j-1], nodes[j]
		}
	}
}

// loadPath records the hashes of the game's positions back to the last placement, for
// repetition detection: a placement cannot be undone, so nothing before it can recur.
func (s *Searcher) loadPath(b *rules.Board) {
	s.path = s.path[:0]
	c := b.Clone()
	for c.Ply() > 0 {
		p := c.LastMoved()
		c.Undo()
		if p != rules.NoPiece && c.InHand(p) {
			break
		}
		s.path = append(s.path, c.Hash())
	}
	slices.Reverse(s.path)
	s.path = append(s.path, b.Hash())
}

func (s *Searcher) ttMove(key uint64) rules.Move {
	if e, ok := s.tt.probe(key); ok {
		return e.move
	}
	return rules.NoMove
}

// searchRoot searches every root move to depth and returns the best move, its score, and
// whether the iteration completed. Root moves are searched in order, the first with a full
// window, the rest with PVS.
func (s *Searcher) searchRoot(root []rules.Move, scores []int, nodesPerMove []int64, depth int) (rules.Move, int, bool) {
	b := s.board
	alpha, beta := -Infinity, Infinity
	best, bestScore := rules.NoMove, -Infinity
	s.pvLen[0] = 0
	for i, m := range root {
		before := s.nodes
		b.Apply(m)
		s.path = append(s.path, b.Hash())
		var score int
		if i == 0 {
			score = -s.negamax(depth-1, 1, -beta, -alpha)
		} else {
			score = -s.negamax(depth-1, 1, -alpha-1, -alpha)
			if score > alpha && !s.stopped {
				score = -s.negamax(depth-1, 1, -beta, -alpha)
			}
		}
		s.path = s.path[:len(s.path)-1]
		b.Undo()
		nodesPerMove[i] = s.nodes - before
		if s.stopped {
			return best, bestScore, false
		}
		scores[i] = score
		if score > bestScore {
			best, bestScore = m, score
			alpha = max(alpha, score)
			s.pv[0][0] = m
			n := s.pvLen[1]
			copy(s.pv[0][1:], s.pv[1][:n])
			s.pvLen[0] = n + 1
		}
	}
	s.tt.store(b.Hash(), best, bestScore, depth, boundExact)
	return best, bestScore, true
}

// poll looks at the clock, the context and the node budget, and sets stopped when the search
// must end.
func (s *Searcher) poll() {
	if s.nodeLimit > 0 && s.nodes >= s.nodeLimit {
		s.stopped = true
		return
	}
	if s.hasStop && !time.Now().Before(s.stopAt) {
		s.stopped = true
		return
	}
	select {
	case <-s.ctx.Done():
		s.stopped = true
	default:
	}
}

// negamax is a fail-soft principal variation search of the side to move's position to depth
// plies, ply plies from the root.
func (s *Searcher) negamax(depth, ply, alpha, beta int) int {
	s.nodes++
	if s.nodes&(checkEvery-1) == 0 {
		s.poll()
	}
	if s.stopped {
		return 0
	}
	s.pvLen[ply] = 0
	b := s.board
	switch b.State() {
	case rules.Draw:
		return 0
	case rules.WhiteWins, rules.BlackWins:
		// The side to move has lost, unless the last move surrounded its mover's own queen.
		if (b.State() == rules.WhiteWins) == (b.ToMove() == rules.White) {
			return Mate - ply
		}
		return -(Mate - ply)
	}
	if s.isRepetition() {
		return 0
	}
	if ply >= MaxPly {
		return evaluate(b, s.aggression)
	}
	// A win next move is the best there can be; a loss now the worst.
	alpha = max(alpha, -(Mate - ply))
	beta = min(beta, Mate-ply-1)
	if alpha >= beta {
		return alpha
	}
	if depth <= 0 {
		if s.canWinNow(ply) {
			return Mate - ply - 1
		}
		return evaluate(b, s.aggression)
	}

	key := b.Hash()
	pvNode := beta-alpha > 1
	ttMove := rules.NoMove
	if e, ok := s.tt.probe(key); ok {
		ttMove = e.move
		if int(e.depth) >= depth && !pvNode {
			score := scoreFromTT(int(e.score), ply)
			switch e.bound() {
			case boundExact:
				return score
			case boundLower:
				if score >= beta {
					return score
				}
			case boundUpper:
				if score <= alpha {
					return score
				}
			}
		}
	}

	moves := b.GenerateMoves(s.moves[ply][:0])
	s.moves[ply] = moves
	s.keys[ply] = s.orderMoves(moves, s.keys[ply][:0], ply, ttMove)

	origAlpha := alpha
	best, bestMove := -Infinity, rules.NoMove
	for i, m := range moves {
		b.Apply(m)
		s.path = append(s.path, b.Hash())
		var score int
		if i == 0 {
			score = -s.negamax(depth-1, ply+1, -beta, -alpha)
		} else {
			score = -s.negamax(depth-1, ply+1, -alpha-1, -alpha)
			if score > alpha && score < beta && !s.stopped {
				score = -s.negamax(depth-1, ply+1, -beta, -alpha)
			}
		}
		s.path = s.path[:len(s.path)-1]
		b.Undo()
		if s.stopped {
			return 0
		}
		if score <= best {
			continue
		}
		best, bestMove = score, m
		if score <= alpha {
			continue
		}
		alpha = score
		s.pv[ply][0] = m
		n := s.pvLen[ply+1]
		copy(s.pv[ply][1:], s.pv[ply+1][:n])
		s.pvLen[ply] = n + 1
		if score >= beta {
			s.rewardCutoff(m, ply, depth, moves[:i])
			break
		}
	}

	bd := boundExact
	switch {
	case best <= origAlpha:
		bd = boundUpper
		bestMove = rules.NoMove // no move proved itself: keep the old hint
	case best >= beta:
		bd = boundLower
	}
	s.tt.store(key, bestMove, scoreToTT(best, ply), depth, bd)
	return best
}

// isRepetition reports whether the current position occurred earlier with the same side to
// move since the last placement: a repetition is scored as a draw, so that a winning side
// makes progress and a losing one may hold.
func (s *Searcher) isRepetition() bool {
	n := len(s.path)
	key := s.path[n-1]
	for i := n - 3; i >= 0; i -= 2 {
		if s.path[i] == key {
			return true
		}
	}
	return false
}

// Mate scores are stored relative to the position, not the root, so that an entry is right
// wherever in the tree the position comes up again.
func scoreToTT(score, ply int) int {
	switch {
	case score >= MateBound:
		return score + ply
	case score <= -MateBound:
		return score - ply
	}
	return score
}

func scoreFromTT(score, ply int) int {
	switch {
	case score >= MateBound:
		return score - ply
	case score <= -MateBound:
		return score + ply
	}
	return score
}

// canWinNow reports whether the side to move can surround the enemy queen with one move.
func (s *Searcher) canWinNow(ply int) bool {
	b := s.board
	us := b.ToMove()
	them := us.Opponent()
	qc := b.CellOf(rules.Queen(them))
	if qc == rules.NoCell || b.QueenNeighbors(them) != 5 {
		return false
	}
	moves := b.GenerateMoves(s.moves[ply][:0])
	s.moves[ply] = moves
	won := false
	for _, m := range moves {
		if m == rules.PassMove || m.Piece() == rules.Queen(them) || !addsNeighbor(b, qc, b.CellOf(m.Piece()), m.To()) {
			continue
		}
		b.Apply(m)
		st := b.State()
		b.Undo()
		if st == rules.WhiteWins && us == rules.White || st == rules.BlackWins && us == rules.Black {
			won = true
			break
		}
	}
	return won
}
