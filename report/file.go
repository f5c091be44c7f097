package report

import (
	"sync"
	"time"

	"hivearbiter/results"
)

// File keeps a report file up to date as a match runs: an Observer that rewrites the file
// (atomically) as games finish. A rewrite of a long match's report takes a while, so the file
// is rewritten at most every few times as long as the last rewrite took, and at least once a
// second apart; Flush writes what the last rewrite missed.
type File struct {
	path string

	mu      sync.Mutex
	coll    *collector
	dirty   bool
	last    time.Time     // when the file was last written
	took    time.Duration // how long that took
	lastErr error
}

var _ Observer = (*File)(nil)

// NewFile returns an Observer that writes the report of a match to path.
func NewFile(path string, opts Options) *File {
	return &File{path: path, coll: newCollector(opts)}
}

// GameStarted does nothing: a report shows finished games only.
func (f *File) GameStarted(int, results.Player, results.Player, string) {}

// MovePlayed does nothing: a report shows finished games only.
func (f *File) MovePlayed(int, results.Move) {}

// GameFinished adds the game and rewrites the file unless it was rewritten very recently.
func (f *File) GameFinished(rec *results.Record) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.coll.add(rec)
	f.dirty = true
	if time.Since(f.last) >= max(time.Second, 4*f.took) {
		f.writeLocked()
	}
}

// Flush writes the file if a finished game is not in it yet, and returns the first error of
// any rewrite since the last Flush.
func (f *File) Flush() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dirty {
		f.writeLocked()
	}
	err := f.lastErr
	f.lastErr = nil
	return err
}

func (f *File) writeLocked() {
	start := time.Now()
	if err := WriteFile(f.path, f.coll.data()); err != nil && f.lastErr == nil {
		f.lastErr = err
	}
	f.dirty, f.last, f.took = false, time.Now(), time.Since(start)
}
