package search

import (
	"context"
	"runtime"
	"slices"
	"sync/atomic"
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
	// Nodes stops the search after about this many nodes, counted over all threads; 0
	// means no limit.
	Nodes int64
}

// Result is the outcome of a search.
type Result struct {
	Move  rules.Move   // the move to play; NoMove only when the game is over
	Score int          // from the side to move's point of view
	Depth int          // the deepest iteration that completed
	PV    []rules.Move // the principal variation, starting with Move
	Nodes int64        // searched by all threads
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
	// Threads is how many threads search each position, sharing the transposition table;
	// 0 means 1.
	Threads int
}

// DefaultHashMB is the transposition table size when none is given.
const DefaultHashMB = 32

// MaxThreads is the most threads a Searcher runs.
const MaxThreads = 64

// Searcher searches positions. It keeps its transposition table between searches; it is not
// safe for concurrent use, but one search may run on several threads (Options.Threads).
type Searcher struct {
	tt         *table
	hashMB     int
	aggression int
	threads    int
	weights    Weights
	softTime   int         // percent of a time budget after which no iteration starts
	main       *worker     // the thread that runs Search
	pool       *workerPool // the helpers' workers, kept between searches
}

// worker is one thread of a search: its board, its move lists and its move-ordering
// memory. Workers share the transposition table, the stop flag, and the splits they search
// together.
type worker struct {
	tt      *table
	history [rules.NumPieces][rules.NumCells]int32
	killers [MaxPly + 1][2]rules.Move
	moves   [MaxPly + 1][]rules.Move // the move list of each ply, reused
	keys    [MaxPly + 1][]uint64     // sort keys of each ply's moves, reused
	pv      [MaxPly + 1][MaxPly + 1]rules.Move
	pvLen   [MaxPly + 1]int

	// per search
	aggression int
	weights    *Weights // the search's copy, shared by its threads
	board      *rules.Board
	path       []uint64 // position hashes from the last placement before the root to here
	nodes      int64
	shared     *sharedState
	split      *split // the innermost split this worker searches moves of, if any
	stopped    bool
}

// sharedState is what the threads of one search share besides the table: how and when to
// stop, how many nodes they searched between them, and the idle threads.
type sharedState struct {
	ctx         context.Context
	now         func() time.Time
	stop        atomic.Bool  // set by the thread that finds the search must end
	nodes       atomic.Int64 // counted by poll, a batch at a time, for the node limit
	helperNodes atomic.Int64 // searched by helpers, added when each leaves a split
	nodeLimit   int64
	weights     Weights // read by every thread; copied when the search starts
	stopAt      time.Time
	hasStop     bool

	idle chan struct{} // a token per idle thread; nil when the search runs on one thread
	pool *workerPool
}

func newWorker(tt *table) *worker {
	w := &worker{tt: tt}
	for i := range w.moves {
		w.moves[i] = make([]rules.Move, 0, 256)
		w.keys[i] = make([]uint64, 0, 256)
	}
	return w
}

// New returns a Searcher.
func New(opts Options) *Searcher {
	mb := opts.HashMB
	if mb <= 0 {
		mb = DefaultHashMB
	}
	s := &Searcher{tt: newTable(mb), hashMB: mb, weights: defaultWeights, softTime: DefaultSoftTime}
	s.main = newWorker(s.tt)
	s.pool = &workerPool{tt: s.tt}
	s.SetAggression(opts.Aggression)
	s.SetThreads(opts.Threads)
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

// Aggression returns the evaluation's aggression.
func (s *Searcher) Aggression() int { return s.aggression }

// Weights returns the evaluation's weights.
func (s *Searcher) Weights() Weights { return s.weights }

// SetWeights sets the evaluation's weights for the searches that start after it.
func (s *Searcher) SetWeights(w Weights) { s.weights = w }

// Soft time limits, in percent of a search's time budget: no iteration starts after this
// share of the budget is spent, since the next one would most likely not finish.
const (
	MinSoftTime     = 10
	DefaultSoftTime = 50
	MaxSoftTime     = 100
)

// SoftTime returns the soft time limit in percent of the budget.
func (s *Searcher) SoftTime() int { return s.softTime }

// SetSoftTime sets the soft time limit in percent of the budget (clamped to the range).
func (s *Searcher) SetSoftTime(percent int) {
	s.softTime = min(max(percent, MinSoftTime), MaxSoftTime)
}

// Threads returns how many threads search each position.
func (s *Searcher) Threads() int { return s.threads }

// SetThreads sets how many threads search each position (0 for 1; clamped to MaxThreads).
func (s *Searcher) SetThreads(n int) {
	s.threads = min(max(n, 1), MaxThreads)
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
		s.main.tt = s.tt
		s.pool.tt = s.tt // pooled workers take it when they are next used
	}
}

// Clear forgets everything learnt in earlier searches, so that the next search depends only
// on its position and limits: a fixed-depth search on one thread after Clear is
// deterministic.
func (s *Searcher) Clear() {
	s.tt.clear()
	for _, w := range append([]*worker{s.main}, s.pool.free...) {
		w.history = [rules.NumPieces][rules.NumCells]int32{}
		w.killers = [MaxPly + 1][2]rules.Move{}
	}
}

// timeReserve is how long before a context deadline the search stops, to leave time to
// unwind and answer: a tenth of the budget, at least 10 ms (what an answer takes to reach
// an arbiter and be timed on a busy machine), at most 100 ms, and never more than half the
// budget, so that a tiny budget still buys some search. With a smaller floor, an arbiter's
// clock budgets (a share of what is left plus most of the increment) were overrun by the
// answer's latency at every move, and the clock sank until one slow answer lost the game.
func timeReserve(budget time.Duration) time.Duration {
	return min(max(budget/10, 10*time.Millisecond), 100*time.Millisecond, budget/2)
}

// checkEvery is how many nodes pass between looks at the clock (a power of two).
const checkEvery = 256

// Search finds a move for the side to move by iterative deepening. It stops at the depth or
// node limit, when ctx is done, or a little before ctx's deadline, and then returns the best
// move of the deepest completed iteration (or a better one found in the unfinished one). It
// returns a legal move whenever one exists, however early it is stopped. The board is used
// as scratch and left as it was.
//
// With several threads (Options.Threads), a node shares the moves after its first among the
// idle threads (Young Brothers Wait; see parallel.go), each searching on its own copy of the
// board; all share the transposition table.
func (s *Searcher) Search(ctx context.Context, b *rules.Board, lim Limits) Result {
	return s.search(ctx, b, lim, time.Now)
}

// search is Search with the clock as a parameter, so that tests can control time.
func (s *Searcher) search(ctx context.Context, b *rules.Board, lim Limits, now func() time.Time) Result {
	start := now()
	sh := &sharedState{ctx: ctx, now: now, nodeLimit: lim.Nodes, weights: s.weights}
	soft := time.Duration(0)
	if dl, ok := ctx.Deadline(); ok {
		budget := dl.Sub(start)
		sh.stopAt, sh.hasStop = dl.Add(-timeReserve(budget)), true
		soft = budget * time.Duration(s.softTime) / 100
	}
	s.tt.newSearch()
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > MaxPly-1 {
		maxDepth = MaxPly - 1
	}

	if s.threads > 1 {
		sh.idle = make(chan struct{}, s.threads)
		for range s.threads - 1 {
			sh.idle <- struct{}{}
		}
		sh.pool = s.pool
	}
	main := s.main
	main.start(b, sh, s.aggression)
	root := slices.Clone(b.GenerateMoves(nil))
	res := Result{Move: rules.NoMove}
	if len(root) == 0 {
		return res
	}
	main.orderMoves(root, main.keys[0][:0], 0, main.ttMove(b.Hash()))
	res.Move = root[0]
	res.PV = []rules.Move{root[0]}
	if len(root) == 1 {
		res.Time = now().Sub(start)
		return res
	}

	res = main.iterate(root, maxDepth, start, soft)
	res.Nodes = main.nodes + sh.helperNodes.Load() // every helper has left its split by now
	res.Time = now().Sub(start)
	return res
}

// start readies a worker for a search of board b.
func (w *worker) start(b *rules.Board, sh *sharedState, aggression int) {
	w.board, w.shared, w.aggression, w.weights = b, sh, aggression, &sh.weights
	w.stopped, w.nodes, w.split = false, 0, nil
	w.loadPath(b)
}

// iterate deepens the search of the root moves, best first, until maxDepth, a proven
// result, a stop, or (for a soft time above zero) an iteration ending past it.
func (w *worker) iterate(root []rules.Move, maxDepth int, start time.Time, soft time.Duration) Result {
	res := Result{Move: root[0], PV: []rules.Move{root[0]}}
	nodesPerMove := make([]int64, len(root))
	for depth := 1; depth <= maxDepth; depth++ {
		best, score, complete := w.searchRoot(root, nodesPerMove, depth)
		// In an unfinished iteration, best is set only once the first move (the previous
		// best) was searched in full, so it is at least as good as that move at this depth.
		if best != rules.NoMove {
			res.Move, res.Score = best, score
			res.PV = append(res.PV[:0], w.pv[0][:w.pvLen[0]]...)
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
		if w.shared.hasStop && soft > 0 && w.shared.now().Sub(start) > soft {
			break
		}
	}
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
func (w *worker) loadPath(b *rules.Board) {
	w.path = w.path[:0]
	c := b.Clone()
	for c.Ply() > 0 {
		p := c.LastMoved()
		c.Undo()
		if p != rules.NoPiece && c.InHand(p) {
			break
		}
		w.path = append(w.path, c.Hash())
	}
	slices.Reverse(w.path)
	w.path = append(w.path, b.Hash())
}

func (w *worker) ttMove(key uint64) rules.Move {
	if e, ok := w.tt.probe(key); ok {
		return e.move
	}
	return rules.NoMove
}

// searchRoot searches every root move to depth and returns the best move, its score, and
// whether the iteration completed. Root moves are searched in order, the first with a full
// window, the rest with PVS, shared among the threads when the search has several.
func (w *worker) searchRoot(root []rules.Move, nodesPerMove []int64, depth int) (rules.Move, int, bool) {
	b := w.board
	alpha, beta := -Infinity, Infinity
	best, bestScore := rules.NoMove, -Infinity
	w.pvLen[0] = 0
	for i, m := range root {
		if i > 0 && w.canSplit(depth) {
			bestScore, best = w.searchSplit(root, i, depth, 0, alpha, beta, bestScore, best, nodesPerMove)
			if w.stopped {
				return best, bestScore, false
			}
			break
		}
		before := w.nodes
		b.Apply(m)
		w.path = append(w.path, b.Hash())
		var score int
		if i == 0 {
			score = -w.negamax(depth-1, 1, -beta, -alpha)
		} else {
			score = -w.negamax(depth-1, 1, -alpha-1, -alpha)
			if score > alpha && !w.stopped {
				score = -w.negamax(depth-1, 1, -beta, -alpha)
			}
		}
		w.path = w.path[:len(w.path)-1]
		b.Undo()
		nodesPerMove[i] = w.nodes - before
		if w.stopped {
			return best, bestScore, false
		}
		if score > bestScore {
			best, bestScore = m, score
			alpha = max(alpha, score)
			w.pv[0][0] = m
			n := w.pvLen[1]
			copy(w.pv[0][1:], w.pv[1][:n])
			w.pvLen[0] = n + 1
		}
	}
	w.tt.store(b.Hash(), best, bestScore, depth, boundExact)
	return best, bestScore, true
}

// poll looks at the stop flag, the node budget, the clock and the context, and sets stopped
// (and the shared stop flag) when the search must end; and sets stopped when a split the
// worker searches in was refuted. Nodes are added to the shared count here, a batch at a
// time.
func (w *worker) poll() {
	sh := w.shared
	total := sh.nodes.Add(checkEvery)
	switch {
	case sh.stop.Load():
	case sh.nodeLimit > 0 && total >= sh.nodeLimit:
	case sh.hasStop && !sh.now().Before(sh.stopAt):
	default:
		select {
		case <-sh.ctx.Done():
		default:
			w.stopped = w.split.abortedChain()
			if sh.idle != nil {
				// With every processor searching, a goroutine that wakes up (the engine's
				// signal handler or input reader, which stop the search) would wait for
				// the runtime's preemption, 10 ms or more: two-thread searches stopped by
				// SIGINT answered 9 ms late on average (at most 28 ms), and 2 ms with this
				// yield. The bench on two threads runs as fast with it as without.
				runtime.Gosched()
			}
			return
		}
	}
	sh.stop.Store(true)
	w.stopped = true
}

// negamax is a fail-soft principal variation search of the side to move's position to depth
// plies, ply plies from the root.
func (w *worker) negamax(depth, ply, alpha, beta int) int {
	w.nodes++
	if w.nodes&(checkEvery-1) == 0 {
		w.poll()
	}
	if w.stopped {
		return 0
	}
	w.pvLen[ply] = 0
	b := w.board
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
	if w.isRepetition() {
		return 0
	}
	if ply >= MaxPly {
		return evaluate(b, w.weights, w.aggression)
	}
	// A win next move is the best there can be; a loss now the worst.
	alpha = max(alpha, -(Mate - ply))
	beta = min(beta, Mate-ply-1)
	if alpha >= beta {
		return alpha
	}
	if depth <= 0 {
		if w.canWinNow(ply) {
			return Mate - ply - 1
		}
		return evaluate(b, w.weights, w.aggression)
	}

	key := b.Hash()
	pvNode := beta-alpha > 1
	ttMove := rules.NoMove
	if e, ok := w.tt.probe(key); ok {
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

	moves := b.GenerateMoves(w.moves[ply][:0])
	w.moves[ply] = moves
	keys := w.scoreMoves(moves, w.keys[ply][:0], ply, ttMove)
	w.keys[ply] = keys

	origAlpha := alpha
	best, bestMove := -Infinity, rules.NoMove
	for i := range moves {
		if i > 0 && w.canSplit(depth) {
			orderRest(moves, keys, i)
			best, bestMove = w.searchSplit(moves, i, depth, ply, alpha, beta, best, bestMove, nil)
			if w.stopped {
				return 0
			}
			if best >= beta {
				w.rewardCutoff(bestMove, ply, depth, nil)
			}
			break
		}
		m := nextMove(moves, keys, i)
		b.Apply(m)
		w.path = append(w.path, b.Hash())
		var score int
		if i == 0 {
			score = -w.negamax(depth-1, ply+1, -beta, -alpha)
		} else {
			score = -w.negamax(depth-1, ply+1, -alpha-1, -alpha)
			if score > alpha && score < beta && !w.stopped {
				score = -w.negamax(depth-1, ply+1, -beta, -alpha)
			}
		}
		w.path = w.path[:len(w.path)-1]
		b.Undo()
		if w.stopped {
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
		w.pv[ply][0] = m
		n := w.pvLen[ply+1]
		copy(w.pv[ply][1:], w.pv[ply+1][:n])
		w.pvLen[ply] = n + 1
		if score >= beta {
			w.rewardCutoff(m, ply, depth, moves[:i])
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
	w.tt.store(key, bestMove, scoreToTT(best, ply), depth, bd)
	return best
}

// isRepetition reports whether the current position occurred earlier with the same side to
// move since the last placement: a repetition is scored as a draw, so that a winning side
// makes progress and a losing one may hold.
func (w *worker) isRepetition() bool {
	n := len(w.path)
	key := w.path[n-1]
	for i := n - 3; i >= 0; i -= 2 {
		if w.path[i] == key {
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
func (w *worker) canWinNow(ply int) bool {
	b := w.board
	us := b.ToMove()
	them := us.Opponent()
	qc := b.CellOf(rules.Queen(them))
	if qc == rules.NoCell || b.QueenNeighbors(them) != 5 {
		return false
	}
	moves := b.GenerateMoves(w.moves[ply][:0])
	w.moves[ply] = moves
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
