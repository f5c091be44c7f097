package distributed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/rules"
)

// Identify starts each engine once, as a game would seat it (so an engine that does not play
// the run's game type is refused here, before any game, as a local run refuses it), reads what
// it says of itself and hashes its program: the identities a run expects of its workers'
// engines, or a worker reports of its own.
func Identify(ctx context.Context, engines []arbiter.EngineConfig, gameType string, timeout time.Duration) ([]EngineIdentity, error) {
	gt, err := rules.ParseGameType(gameType)
	if err != nil {
		return nil, fmt.Errorf("distributed: %w", err)
	}
	seats := &arbiter.Seats{Engines: engines, GameType: gt, StartTimeout: timeout, Start: arbiter.StartThroughProtocol("")}
	defer seats.Close(ctx)
	ids := make([]EngineIdentity, len(engines))
	for i, e := range engines {
		sum, err := programSHA256(e)
		if err != nil {
			return nil, fmt.Errorf("distributed: engine %q: %w", e.Name, err)
		}
		p, err := seats.Seat(ctx, i)
		if err != nil {
			return nil, err
		}
		ids[i] = EngineIdentity{Name: e.Name, ID: p.Info().ID, SHA256: sum}
		seats.Drop(ctx, i)
	}
	return ids, nil
}

// programSHA256 hashes the program an engine runs; a player reached over the network has none.
func programSHA256(e arbiter.EngineConfig) (string, error) {
	if len(e.Command) == 0 {
		return "", nil
	}
	prog := e.Command[0]
	if filepath.Base(prog) == prog {
		found, err := exec.LookPath(prog)
		if err != nil {
			if e.ProtocolName() != arbiter.DefaultProtocol {
				return "", nil // a protocol whose command names no program (an in-process player)
			}
			return "", err
		}
		prog = found
	} else if !filepath.IsAbs(prog) && e.Dir != "" {
		prog = filepath.Join(e.Dir, prog)
	}
	f, err := os.Open(prog)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
