package pool

import (
	"context"
	"errors"
	"os"
	"strings"

	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/tune"
)

// SubmitFlags are a submitter's settings, as its flags give them: its credentials, and where
// the run goes in the pool (-creds, -priority, -share, -platform). DefaultSubmitFlags holds
// their defaults.
type SubmitFlags struct {
	Creds     string
	Priority  int
	Share     float64
	Platforms string // comma-separated OS/ARCH
	TokenFile string // a person's token (see Token)
	// ScaleNPS and ScaleBy, for a run, scale its limits by each worker's speed (TimeScale):
	// none when ScaleNPS is 0.
	ScaleNPS int64
	ScaleBy  string
}

// DefaultSubmitFlags are a submission's settings given no flags: a share of 1, and time
// scaling (if asked for) by the base engine's bench.
func DefaultSubmitFlags() SubmitFlags { return SubmitFlags{Share: 1, ScaleBy: ScaleByBase} }

// ErrNoCreds is a submission without -creds.
var ErrNoCreds = errors.New("-creds FILE is required (the server writes DIR/submitter.creds)")

// Validate reports what a submission's settings lack: the submitter's credentials (ErrNoCreds).
func (f *SubmitFlags) Validate() error {
	if f.Creds == "" {
		return ErrNoCreds
	}
	return nil
}

// Submission is a submission placed as the flags say, for its run's Config or its Tune.
func (f *SubmitFlags) Submission() *Submission {
	sub := &Submission{Priority: f.Priority, Share: f.Share}
	if f.Platforms != "" {
		sub.Platforms = strings.Split(f.Platforms, ",")
	}
	if f.ScaleNPS != 0 {
		sub.Scale = &TimeScale{NPS: f.ScaleNPS, By: f.ScaleBy}
	}
	return sub
}

// engines are the engines the submission plays: its run's, or its tune's one.
func (s *Submission) engines() []driver.EngineConfig {
	if s.Tune != nil {
		return []driver.EngineConfig{s.Tune.Engine}
	}
	return s.Config.Engines
}

// ReadOpenings reads the openings file the run or the tune names (on the submitter's machine)
// into the submission: the server keeps its content beside the run, for workers that have no
// such file.
func (s *Submission) ReadOpenings() error {
	file := s.Config.Openings.File
	if s.Tune != nil {
		file = s.Tune.Openings.File
	}
	if file == "" {
		return nil
	}
	var err error
	s.Openings, err = os.ReadFile(file)
	return err
}

// Identify starts each engine of the submission on this machine, as its games will (a tune's
// as its pairs play it), to read what it says of itself (distributed.Identify): the workers'
// engines must say the same, or they are refused.
func (s *Submission) Identify(ctx context.Context) error {
	gameType, timeout := s.Config.GameType, s.Config.StartTimeout
	if s.Tune != nil {
		pairs, err := tune.NewPairs(*s.Tune)
		if err != nil {
			return err
		}
		gameType, timeout = pairs.Config().GameType, pairs.Config().StartTimeout
	}
	var err error
	s.Expect, err = distributed.Identify(ctx, s.engines(), gameType, timeout)
	return err
}

// SubmitEngines uploads the submission's engines to the pool's artifacts, makes the run carry
// them as the workers fetch them, and submits it. Of a run's engine uploaded, the identity's
// SHA-256 is left out: the artifact's hash names the program, and the interpreter of a
// scripted engine (python3) is each worker's own, which hashes differently on each.
func (c *Client) SubmitEngines(ctx context.Context, sub *Submission) (*RunState, error) {
	manifests, engines, err := c.UploadEngines(ctx, sub.engines())
	if err != nil {
		return nil, err
	}
	sub.Manifests = manifests
	if sub.Tune != nil {
		sub.Tune.Engine = engines[0]
		return c.Submit(ctx, sub)
	}
	sub.Config.Engines = engines
	for i, m := range manifests {
		if m.SHA256 != "" {
			sub.Expect[i].SHA256 = ""
		}
	}
	return c.Submit(ctx, sub)
}
