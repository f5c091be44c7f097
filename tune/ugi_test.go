package tune

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/engine/ugiengine"
	_ "hivearbiter/proto/ugi" // the protocol of the synthetic UGI engine
	"hivearbiter/rules"
)

// syntheticUGIEnv, when set, makes the test binary the synthetic engine as a UGI program.
const syntheticUGIEnv = "TUNE_SYNTHETIC_UGI"

// syntheticSearcher is the synthetic model as a UGI engine: with a move limit of the opening
// and two plies, each side searches once, and it throws the game there (passes while it has
// moves) with the model's probability for its Skill; otherwise it plays the first move.
type syntheticSearcher struct {
	model synthetic
	skill float64
}

func (s *syntheticSearcher) ID() (string, string) { return "synthetic-ugi", "tune's tests" }

func (s *syntheticSearcher) Options() []ugiengine.Option {
	return []ugiengine.Option{{Name: "Skill", Type: "spin", Default: "50", Min: "0", Max: "100"}}
}

func (s *syntheticSearcher) SetOption(name, value string) error {
	v, err := strconv.ParseFloat(value, 64)
	if name != "Skill" || err != nil {
		return fmt.Errorf("no option %s=%s", name, value)
	}
	s.skill = v
	return nil
}

func (s *syntheticSearcher) NewGame() {}

func (s *syntheticSearcher) Search(_ context.Context, g *rules.Game, _ ugiengine.Limit) ugiengine.Result {
	hash := fnv.New64a()
	fmt.Fprintf(hash, "%s|%g", g.GameString(), s.skill)
	if float64(hash.Sum64()>>11)/(1<<53) < s.model.throwChance(s.skill) {
		return ugiengine.Result{Move: rules.PassMove}
	}
	return ugiengine.Result{Move: g.ValidMoves()[0], Depth: 1}
}

// serveSyntheticUGI runs the synthetic UGI engine on standard input and output.
func serveSyntheticUGI() error {
	s := &syntheticSearcher{model: synthetic{Optimum: 60, Width: 100}, skill: 50}
	return ugiengine.NewServer(s).Serve(context.Background(), os.Stdin, os.Stdout)
}

// The tune works over UGI too ("setoption name Skill value V"): Skill moves from 20 to within
// 10 of the optimum, 60, in 200 pairs.
func TestTuneThroughUGI(t *testing.T) {
	if testing.Short() {
		t.Skip("starts some 500 engine processes")
	}
	cfg := Config{
		Engine: arbiter.EngineConfig{Name: "synthetic", Protocol: "ugi", Command: []string{os.Args[0]},
			Env: []string{syntheticUGIEnv + "=1"}, Time: arbiter.TimeControl{Depth: 1}},
		Params:       []Param{{Name: "Skill", Int: true, Start: 20, Min: 0, Max: 100, CEnd: 10, REnd: 0.1}},
		Schedule:     NewSchedule(200),
		Seed:         1,
		Openings:     arbiter.Openings{RandomPlies: 4},
		Adjudication: arbiter.Adjudication{MaxPlies: 6},
		Concurrency:  2,
		Out:          filepath.Join(t.TempDir(), "tune.jsonl"),
	}
	got, err := Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Skill over UGI: start 20, end %.2f, optimum 60 (%d pairs, plus side +%d =%d -%d)", got.Theta[0], got.Pairs, got.Wins, got.Draws, got.Losses)
	if got.Pairs != 200 || got.Theta[0] < 50 || got.Theta[0] > 70 {
		t.Errorf("%d pairs, Skill %.2f; want 200 pairs and Skill within 10 of 60", got.Pairs, got.Theta[0])
	}
}
