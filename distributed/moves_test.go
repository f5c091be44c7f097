package distributed

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/results"
)

// gameWatcher records, per game, whether it was seen to start and how many moves it was seen
// to play before it was counted.
type gameWatcher struct {
	mu          sync.Mutex
	started     map[int]bool
	moves       map[int]int
	movesBefore map[int]int // moves seen when the game was counted
}

func (w *gameWatcher) GameStarted(g arbiter.ScheduledGame, _, _ string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.started[g.Index] = true
}

func (w *gameWatcher) MovePlayed(game int, _ results.Move) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.moves[game]++
}

func (w *gameWatcher) GameFinished(r *results.Record, _ arbiter.Standings) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.movesBefore[r.Game] = w.moves[r.Game]
}

// TestWorkersMovesReachObservers: the moves of games played on workers reach the run's
// observers (its live pages) as they are played, not only when each game is counted: every game
// is seen to start, and to play moves before its record arrives. Workers used to send only
// records.
func TestWorkersMovesReachObservers(t *testing.T) {
	dir := t.TempDir()
	cfg := detConfig(filepath.Join(dir, "games.jsonl"), 2)
	cfg.SPRT = nil
	watch := &gameWatcher{started: map[int]bool{}, moves: map[int]int{}, movesBefore: map[int]int{}}
	c := newCluster(t, cfg, dir, watch)
	out := c.run(context.Background(), &Worker{Name: "w"})
	watch.mu.Lock()
	defer watch.mu.Unlock()
	if out.Tally.Games != 4 || len(watch.movesBefore) != 4 {
		t.Fatalf("%d games played, %d seen counted; want 4", out.Tally.Games, len(watch.movesBefore))
	}
	for game, n := range watch.movesBefore {
		if !watch.started[game] || n == 0 {
			t.Errorf("game %d: seen started %v, with %d moves before it was counted; want started, with its moves", game, watch.started[game], n)
		}
	}
}
