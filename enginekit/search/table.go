package search

import (
	"sync/atomic"

	"hivearbiter/rules"
)

// bound says what a stored score is: the exact value, or only a bound on it.
type bound uint8

const (
	boundNone  bound = iota
	boundUpper       // every move failed low: the value is at most the score
	boundLower       // a move failed high: the value is at least the score
	boundExact
)

// entry is what a table slot holds, unpacked.
type entry struct {
	key   uint64
	move  rules.Move
	score int16
	depth int8
	flags uint8 // bound in the low 2 bits, search generation above
}

func (e *entry) bound() bound      { return bound(e.flags & 3) }
func (e *entry) generation() uint8 { return e.flags >> 2 }

// slot is one table entry in two words that threads read and write without locks: data
// packs the move, score, depth and flags, and check is the key xor data. A slot half
// overwritten by another thread no longer checks against its key, so a torn read is a miss,
// never a wrong entry.
type slot struct {
	check atomic.Uint64
	data  atomic.Uint64
}

func pack(move rules.Move, score int16, depth int8, flags uint8) uint64 {
	return uint64(move) | uint64(uint16(score))<<32 | uint64(uint8(depth))<<48 | uint64(flags)<<56
}

// load reads a slot; ok is false when the slot is empty or was torn by a concurrent store.
func (s *slot) load() (e entry, ok bool) {
	data := s.data.Load()
	e = unpack(s.check.Load()^data, data)
	return e, e.bound() != boundNone
}

func unpack(key, data uint64) entry {
	return entry{
		key:   key,
		move:  rules.Move(uint32(data)),
		score: int16(uint16(data >> 32)),
		depth: int8(uint8(data >> 48)),
		flags: uint8(data >> 56),
	}
}

func (s *slot) save(e entry) {
	data := pack(e.move, e.score, e.depth, e.flags)
	s.data.Store(data)
	s.check.Store(e.key ^ data)
}

// table is a transposition table of two-slot buckets keyed by the referee's Zobrist hash: the
// first slot keeps the deepest recent result, the second always takes the newest, so deep
// results survive and fresh ones are never refused. The threads of a search share it.
type table struct {
	slots      []slot
	mask       uint64 // bucket index mask
	generation uint8  // written only between searches
}

// entryBytes is the size of a table slot, for sizing tables in megabytes.
const entryBytes = 16

// newTable returns a table of at most mb megabytes (at least one bucket), a power of two of
// buckets so that a bucket is found with a mask.
func newTable(mb int) *table {
	buckets := uint64(1)
	for buckets*2*2*entryBytes <= uint64(max(mb, 0))<<20 {
		buckets *= 2
	}
	return &table{slots: make([]slot, 2*buckets), mask: buckets - 1}
}

// clear forgets everything. It runs between searches, when no thread uses the table, so
// the slots are zeroed as plain memory: storing atomically slot by slot cost 8% of a
// fixed-depth search of the bench positions.
func (t *table) clear() {
	clear(t.slots)
	t.generation = 0
}

// newSearch ages the stored results, so that the next search prefers to overwrite them.
func (t *table) newSearch() { t.generation = (t.generation + 1) & 63 }

func (t *table) bucket(key uint64) *[2]slot {
	i := (key & t.mask) * 2
	return (*[2]slot)(t.slots[i : i+2])
}

// probe returns the entry stored for key, if any.
func (t *table) probe(key uint64) (entry, bool) {
	bk := t.bucket(key)
	for i := range bk {
		data := bk[i].data.Load()
		if bk[i].check.Load()^data == key && bound(data>>56&3) != boundNone {
			return unpack(key, data), true
		}
	}
	return entry{}, false
}

// store records a search result. The first slot is replaced by the same position, a result
// at least as deep, or one from an older search; anything else goes to the second slot.
func (t *table) store(key uint64, move rules.Move, score, depth int, b bound) {
	bk := t.bucket(key)
	s := &bk[0]
	old, ok := s.load()
	if old.key != key && int(old.depth) > depth && old.generation() == t.generation && ok {
		s = &bk[1]
		old, ok = s.load()
	}
	if ok && old.key == key && move == rules.NoMove {
		move = old.move // keep the old best move: it still orders this position's moves well
	}
	s.save(entry{key: key, move: move, score: int16(score), depth: int8(depth), flags: uint8(b) | t.generation<<2})
}
