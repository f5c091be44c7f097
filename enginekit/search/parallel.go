package search

import (
	"sync"
	"sync/atomic"

	"hivearbiter/rules"
)

// The parallel search is Young Brothers Wait (YBW), as nokamute's: a node searches its first
// move alone, and only then may the rest of its moves be shared out among threads, which
// take them one at a time from the node's list and raise its alpha together. A node is
// split only while a thread is idle, so one thread searches exactly as the serial search
// does. Idle threads are tokens in a channel: a split hands a token to a new goroutine,
// which copies the node's position into a worker of its own, searches moves of the split
// until none is left, and gives the token back. A thread that has no move left in its own
// split gives its token back while it waits for the helpers still searching there, so the
// helpers may split their subtrees in turn (the "helpful master").

// minSplitDepth is the least remaining depth at which a node shares its moves: below it a
// move's tree is too small to be worth a goroutine and a copy of the board (at depth 1 each
// move is one evaluation).
const minSplitDepth = 2

// split is a node whose remaining moves several threads search together.
type split struct {
	parent *split // the split the owner was helping in, if any: its cutoff ends this one too
	owner  *worker
	shared *sharedState

	// The position at the node, copied by the owner when it made the split; helpers copy
	// it in turn. Read-only.
	board *rules.Board
	path  []uint64

	moves        []rules.Move // the node's moves in search order; those before next's start are done
	next         atomic.Int32 // the index of the next move to hand out
	depth, ply   int
	beta         int
	nodesPerMove []int64 // at the root: each move's tree size, written by the thread that searched it

	alpha   atomic.Int32 // the best score proven so far, shared so that every thread cuts with it
	aborted atomic.Bool  // a move failed high: the node is refuted and the others need not be searched

	mu       sync.Mutex // guards best, bestMove and the owner's principal variation at ply
	best     int
	bestMove rules.Move

	helpers   sync.WaitGroup
	recruited atomic.Int32 // how many helpers joined
}

// abortedChain reports whether the split or one it lies inside was refuted.
func (sp *split) abortedChain() bool {
	for ; sp != nil; sp = sp.parent {
		if sp.aborted.Load() {
			return true
		}
	}
	return false
}

// canSplit reports whether a node of this depth should share its remaining moves now: the
// search runs on several threads and one of them is idle.
func (w *worker) canSplit(depth int) bool {
	sh := w.shared
	return sh.idle != nil && depth >= minSplitDepth && len(sh.idle) > 0
}

// orderRest puts the moves from i on into their final search order, which a split hands out
// one by one (nextMove orders them lazily, for the serial search).
func orderRest(moves []rules.Move, keys []uint64, i int) {
	nextMove(moves, keys, i) // selects or sorts as the serial search would, so the order is the same
	for j := i + 1; j < len(moves); j++ {
		nextMove(moves, keys, j)
	}
}

// searchSplit searches moves[first:] of the node at ply together with idle threads, and
// returns the best score and move among them and the node's earlier moves (best and
// bestMove on entry). alpha is the node's alpha so far. nodesPerMove, at the root, receives
// each move's tree size. On return every helper has finished; w.stopped is set only when the
// whole search, or a split w was helping in, has to stop.
func (w *worker) searchSplit(moves []rules.Move, first, depth, ply, alpha, beta, best int, bestMove rules.Move, nodesPerMove []int64) (int, rules.Move) {
	sh := w.shared
	sp := &split{
		parent: w.split, owner: w, shared: sh,
		board: w.board.Clone(), path: append([]uint64(nil), w.path...),
		moves: moves, depth: depth, ply: ply, beta: beta,
		nodesPerMove: nodesPerMove,
		best:         best, bestMove: bestMove,
	}
	sp.next.Store(int32(first))
	sp.alpha.Store(int32(alpha))
	w.split = sp
	w.searchSplitMoves(sp)
	w.split = sp.parent
	if sp.recruited.Load() > 0 {
		// Lend this thread to the helpers' subtrees while they finish.
		sh.idle <- struct{}{}
		sp.helpers.Wait()
		<-sh.idle
	}
	w.stopped = sh.stop.Load() || sp.parent.abortedChain()
	return sp.best, sp.bestMove
}

// searchSplitMoves takes moves of the split one at a time and searches them until none is
// left, the split is refuted, or the search stops. It recruits an idle thread before each
// move while moves remain for it.
func (w *worker) searchSplitMoves(sp *split) {
	b := w.board
	for !w.stopped && !sp.aborted.Load() {
		i := int(sp.next.Add(1)) - 1
		if i >= len(sp.moves) {
			return
		}
		if i+1 < len(sp.moves) {
			sp.recruit()
		}
		m := sp.moves[i]
		before := w.nodes
		b.Apply(m)
		w.path = append(w.path, b.Hash())
		score := w.searchSplitMove(sp)
		w.path = w.path[:len(w.path)-1]
		b.Undo()
		if sp.nodesPerMove != nil {
			sp.nodesPerMove[i] = w.nodes - before
		}
		if w.stopped {
			return
		}
		sp.record(w, m, score)
	}
}

// searchSplitMove searches the position after one of the split's moves with a null window at
// the split's alpha, and again with the full window when the move beats it (PVS).
func (w *worker) searchSplitMove(sp *split) int {
	for {
		alpha := int(sp.alpha.Load())
		score := -w.negamax(sp.depth-1, sp.ply+1, -alpha-1, -alpha)
		if w.stopped || score <= alpha || score >= sp.beta {
			return score
		}
		if int(sp.alpha.Load()) > alpha {
			continue // another thread raised alpha meanwhile: test the move against that first
		}
		return -w.negamax(sp.depth-1, sp.ply+1, -sp.beta, -alpha)
	}
}

// record takes a searched move's score into the split: the best move, alpha, the owner's
// principal variation at the split's ply, and a cutoff.
func (sp *split) record(w *worker, m rules.Move, score int) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if score <= sp.best {
		return
	}
	sp.best, sp.bestMove = score, m
	if score <= int(sp.alpha.Load()) {
		return
	}
	o, ply := sp.owner, sp.ply
	o.pv[ply][0] = m
	n := w.pvLen[ply+1]
	copy(o.pv[ply][1:], w.pv[ply+1][:n])
	o.pvLen[ply] = n + 1
	if score >= sp.beta {
		sp.aborted.Store(true)
		return
	}
	sp.alpha.Store(int32(score))
}

// recruit starts a helper on the split for every idle thread.
func (sp *split) recruit() {
	sh := sp.shared
	for {
		select {
		case <-sh.idle:
		default:
			return
		}
		sp.recruited.Add(1)
		sp.helpers.Add(1)
		go sp.help()
	}
}

// help is a helper's goroutine: it searches moves of the split on a worker of its own, then
// gives its thread back.
func (sp *split) help() {
	sh := sp.shared
	h := sh.pool.get()
	if h.board == nil {
		h.board = sp.board.Clone()
	} else {
		h.board.CopyFrom(sp.board)
	}
	h.path = append(h.path[:0], sp.path...)
	h.shared, h.aggression, h.weights, h.split, h.stopped = sh, sp.owner.aggression, sp.owner.weights, sp, false
	before := h.nodes
	h.searchSplitMoves(sp)
	sh.helperNodes.Add(h.nodes - before)
	h.split, h.shared = nil, nil
	sh.pool.put(h)
	sh.idle <- struct{}{}
	sp.helpers.Done()
}

// workerPool keeps the helpers' workers between splits and searches: a worker holds a board
// with its move generation memory and the move lists of every ply, too much to make per
// split.
type workerPool struct {
	mu   sync.Mutex
	free []*worker
	tt   *table
}

func (p *workerPool) get() *worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		w := p.free[n-1]
		p.free = p.free[:n-1]
		w.tt = p.tt
		return w
	}
	return newWorker(p.tt)
}

func (p *workerPool) put(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.free = append(p.free, w)
}
