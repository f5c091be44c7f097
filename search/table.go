package search

import "hivearbiter/rules"

// bound says what a stored score is: the exact value, or only a bound on it.
type bound uint8

const (
	boundNone  bound = iota
	boundUpper       // every move failed low: the value is at most the score
	boundLower       // a move failed high: the value is at least the score
	boundExact
)

// entry is one transposition-table slot: 16 bytes.
type entry struct {
	key   uint64
	move  rules.Move
	score int16
	depth int8
	flags uint8 // bound in the low 2 bits, search generation above
}

func (e *entry) bound() bound      { return bound(e.flags & 3) }
func (e *entry) generation() uint8 { return e.flags >> 2 }

// table is a transposition table of two-slot buckets keyed by the referee's Zobrist hash: the
// first slot keeps the deepest recent result, the second always takes the newest, so deep
// results survive and fresh ones are never refused.
type table struct {
	entries    []entry
	mask       uint64 // bucket index mask
	generation uint8
}

// entryBytes is the size of a table entry, for sizing tables in megabytes.
const entryBytes = 16

// newTable returns a table of at most mb megabytes (at least one bucket), a power of two of
// buckets so that a bucket is found with a mask.
func newTable(mb int) *table {
	buckets := uint64(1)
	for buckets*2*2*entryBytes <= uint64(max(mb, 0))<<20 {
		buckets *= 2
	}
	return &table{entries: make([]entry, 2*buckets), mask: buckets - 1}
}

// clear forgets everything.
func (t *table) clear() {
	clear(t.entries)
	t.generation = 0
}

// newSearch ages the stored results, so that the next search prefers to overwrite them.
func (t *table) newSearch() { t.generation = (t.generation + 1) & 63 }

func (t *table) bucket(key uint64) []entry {
	i := (key & t.mask) * 2
	return t.entries[i : i+2 : i+2]
}

// probe returns the entry stored for key, if any.
func (t *table) probe(key uint64) (entry, bool) {
	bk := t.bucket(key)
	for i := range bk {
		if bk[i].key == key && bk[i].bound() != boundNone {
			return bk[i], true
		}
	}
	return entry{}, false
}

// store records a search result. The first slot is replaced by the same position, a result
// at least as deep, or one from an older search; anything else goes to the second slot.
func (t *table) store(key uint64, move rules.Move, score, depth int, b bound) {
	bk := t.bucket(key)
	e := &bk[0]
	if e.key != key && int(e.depth) > depth && e.generation() == t.generation && e.bound() != boundNone {
		e = &bk[1]
	}
	if e.key == key && move == rules.NoMove {
		move = e.move // keep the old best move: it still orders this position's moves well
	}
	*e = entry{key: key, move: move, score: int16(score), depth: int8(depth), flags: uint8(b) | t.generation<<2}
}
