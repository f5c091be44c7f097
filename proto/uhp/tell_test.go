//go:build unix

package uhp

import (
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/results"
)

// UHP engines are sent each move at once and answer it side by side: an engine that fails
// on a move is still the one that loses, whichever colour it plays, and the other engine's
// answer to that move is read all the same, so that its next game starts in step.
func TestFailureToPlayIsTheEnginesOwn(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fault  uhpfake.Fault
		reason results.Reason
		detail string
		moves  int // the move it fails on: a fault comes before the seventh, a Mangle after the sixth
	}{
		{"crash", uhpfake.Fault{Then: "exit", Code: 3}, results.ReasonCrash, "failed to play", 7},
		{"hang", uhpfake.Fault{Then: "hang"}, results.ReasonStall, "failed to play", 7},
		{"invalidmove", uhpfake.Fault{Print: []string{"invalidmove You can't move that piece there.", "ok"}, Then: "silent"},
			results.ReasonDesync, "rejected the legal move", 7},
		{"desync", uhpfake.Fault{Mangle: "desync"}, results.ReasonDesync, "differs from the referee's", 6},
	} {
		for culprit, colour := range []string{"White", "Black"} {
			t.Run(tc.name+"/"+colour, func(t *testing.T) {
				fault := tc.fault
				fault.On, fault.FromPly = "play", 6
				var sides [2]arbiter.Side
				for side, name := range []string{"white", "black"} {
					cfg := uhpfake.Config{ID: name + " v1", Salt: "tell"}
					if side == culprit {
						cfg.Faults = []uhpfake.Fault{fault}
					}
					sides[side] = gameSide(t, name, cfg)
				}
				rec := playTellGame(t, sides)
				if rec.Culprit != colour || rec.Reason != tc.reason || !strings.HasPrefix(rec.Detail, colour+" (") ||
					!strings.Contains(rec.Detail, tc.detail) || len(rec.Moves) != tc.moves {
					t.Fatalf("after %d moves: %s, culprit %q: %s; want %s of %s at move %d", len(rec.Moves), rec.Reason, rec.Culprit, rec.Detail, tc.reason, colour, tc.moves)
				}
				// The healthy engine plays its next game, against a new opponent, in step.
				sides[culprit] = gameSide(t, "fresh", uhpfake.Config{ID: "fresh v1", Salt: "tell"})
				if rec := playTellGame(t, sides); rec.Reason != results.ReasonMoveLimit {
					t.Errorf("the next game: %s, culprit %q: %s", rec.Reason, rec.Culprit, rec.Detail)
				}
			})
		}
	}
}

func gameSide(t *testing.T, name string, cfg uhpfake.Config) arbiter.Side {
	argv, env := uhpfake.Command(cfg)
	p := start(t, driver.EngineConfig{Name: name, Command: argv, Env: env}, driver.StartEnv{Grace: 100 * time.Millisecond})
	return arbiter.Side{Name: name, Player: p, Time: driver.TimeControl{Depth: 1}}
}

func playTellGame(t *testing.T, sides [2]arbiter.Side) *results.Record {
	t.Helper()
	cfg := arbiter.GameConfig{Run: "tell", Opening: "Base+MLP", OpeningIndex: -1,
		CommandTimeout: 300 * time.Millisecond, DepthTimeout: 5 * time.Second,
		Adjudication: arbiter.Adjudication{MaxPlies: 20}}
	rec, err := arbiter.PlayGame(t.Context(), cfg, sides[0], sides[1])
	if err != nil {
		t.Fatal(err)
	}
	return rec
}
