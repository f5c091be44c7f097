package tune

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"hivearbiter/internal/proc"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/openings"
)

// syntheticEnv, when set, makes the test binary the synthetic engine as a UHP program.
const syntheticEnv = "TUNE_SYNTHETIC_UHP"

func TestMain(m *testing.M) {
	// On Windows the test binary is its own Ctrl-C sender, as the arbiter is (see proc.Main).
	proc.Main()
	if os.Getenv(syntheticEnv) == "1" {
		if err := uhpserver.NewServer(newSyntheticHandler()).Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(syntheticUGIEnv) == "1" {
		if err := serveSyntheticUGI(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	// Under the race detector a process sleeps a second at exit; the engines need not.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

// syntheticHandler is the synthetic model as a UHP engine: uhpfake's engine, playing moves
// fixed by the position, with an option Skill (0 to 100) that decides, from the position it
// first moves in, whether it throws the game at its first move.
type syntheticHandler struct {
	*uhpfake.Handler
	model      synthetic
	gameString string
	first      bool
}

func newSyntheticHandler() *syntheticHandler {
	skillOption := uhpserver.Option{Name: "Skill", Type: "int", Value: "50", Default: "50", Extra: []string{"0", "100"}}
	return &syntheticHandler{
		Handler: uhpfake.NewHandler(uhpfake.Config{ID: "synthetic v1", Salt: "tune", Options: []uhpserver.Option{skillOption}}),
		model:   synthetic{Optimum: 60, Width: 100},
	}
}

func (h *syntheticHandler) NewGame(ctx context.Context, arg string) (string, error) {
	gs, err := h.Handler.NewGame(ctx, arg)
	h.gameString, h.first = gs, true
	return gs, err
}

func (h *syntheticHandler) Play(ctx context.Context, move string) (string, error) {
	gs, err := h.Handler.Play(ctx, move)
	h.gameString = gs
	return gs, err
}

func (h *syntheticHandler) BestMove(ctx context.Context, limit uhpserver.BestMoveArgs) (string, error) {
	if h.first {
		h.first = false
		o, _ := h.GetOption("Skill")
		v, _ := strconv.ParseFloat(o.Value, 64)
		hash := fnv.New64a()
		fmt.Fprintf(hash, "%s|%g", h.gameString, v)
		if float64(hash.Sum64()>>11)/(1<<53) < h.model.throwChance(v) {
			return "wQ wQ", nil
		}
	}
	return h.Handler.BestMove(ctx, limit)
}

// The tune, through the real UHP protocol (engine processes, options set with "options set"),
// moves the synthetic engine's Skill from 20 to within 10 of its optimum, 60, in 200 pairs.
func TestTuneThroughUHP(t *testing.T) { tuneProgram(t, "uhp", syntheticEnv) }

// tuneProgram tunes the synthetic engine's Skill, run as the test binary under env=1 and
// spoken to in protocol, from 20 over 200 pairs, and wants it within 10 of the optimum, 60.
func tuneProgram(t *testing.T, protocol, env string) {
	if testing.Short() {
		t.Skip("starts engine processes for some 200 pairs")
	}
	cfg := Config{
		Engine: driver.EngineConfig{Name: "synthetic", Protocol: protocol, Command: []string{os.Args[0]}, Env: []string{env + "=1"},
			Time: driver.TimeControl{Depth: 1}},
		Params:       []Param{{Name: "Skill", Int: true, Start: 20, Min: 0, Max: 100, CEnd: 10, REnd: 0.1}},
		Gains:        NewGains(200),
		Seed:         1,
		Openings:     openings.Config{RandomPlies: 4},
		Adjudication: arbiter.Adjudication{MaxPlies: 6},
		Concurrency:  2,
		Out:          filepath.Join(t.TempDir(), "tune.jsonl"),
	}
	got, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Skill over %s: start 20, end %.2f, optimum 60 (%d pairs, plus side +%d =%d -%d)", protocol, got.Theta[0], got.Pairs, got.Wins, got.Draws, got.Losses)
	if got.Pairs != 200 || got.Theta[0] < 50 || got.Theta[0] > 70 {
		t.Errorf("%d pairs, Skill %.2f; want 200 pairs and Skill within 10 of 60", got.Pairs, got.Theta[0])
	}
}
