package tune

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"strconv"
	"testing"

	"hivearbiter/enginekit/ugiserver"
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

func (s *syntheticSearcher) Options() []ugiserver.Option {
	return []ugiserver.Option{{Name: "Skill", Type: "spin", Default: "50", Min: "0", Max: "100"}}
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

func (s *syntheticSearcher) Search(_ context.Context, g *rules.Game, _ ugiserver.GoArgs) ugiserver.Result {
	hash := fnv.New64a()
	fmt.Fprintf(hash, "%s|%g", g.GameString(), s.skill)
	if float64(hash.Sum64()>>11)/(1<<53) < s.model.throwChance(s.skill) {
		return ugiserver.Result{Move: rules.PassMove}
	}
	return ugiserver.Result{Move: g.ValidMoves()[0], Depth: 1}
}

// serveSyntheticUGI runs the synthetic UGI engine on standard input and output.
func serveSyntheticUGI() error {
	s := &syntheticSearcher{model: synthetic{Optimum: 60, Width: 100}, skill: 50}
	return ugiserver.NewServer(s).Serve(context.Background(), os.Stdin, os.Stdout)
}

// The tune works over UGI too ("setoption name Skill value V"): Skill moves from 20 to within
// 10 of the optimum, 60, in 200 pairs.
func TestTuneThroughUGI(t *testing.T) { tuneProgram(t, "ugi", syntheticUGIEnv) }
