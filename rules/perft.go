package rules

// Perft counts the leaf nodes of the move tree depth plies deep, as Mzinga does: a finished
// game has no children, a forced pass is one move, and the last ply is counted in bulk.
func (b *Board) Perft(depth int) uint64 {
	buffers := make([][]Move, depth+1)
	for i := range buffers {
		buffers[i] = make([]Move, 0, 256)
	}
	return b.perft(depth, buffers)
}

func (b *Board) perft(depth int, buffers [][]Move) uint64 {
	if depth == 0 {
		return 1
	}
	moves := b.GenerateMoves(buffers[depth][:0])
	buffers[depth] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		b.Apply(m)
		n += b.perft(depth-1, buffers)
		b.Undo()
	}
	return n
}
