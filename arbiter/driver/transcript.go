package driver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// transcriptSeq numbers transcript files within a process.
var transcriptSeq atomic.Int64

// Transcript is the file that receives a player's conversation. A nil *Transcript is a run
// that keeps none: its methods may be called all the same, so a protocol needs no checks.
type Transcript struct{ f *os.File }

// Writer is where the conversation goes: a nil io.Writer (not a nil file in one) when there is
// no transcript.
func (t *Transcript) Writer() io.Writer {
	if t == nil {
		return nil
	}
	return t.f
}

// Name is the transcript's path, "" when there is none.
func (t *Transcript) Name() string {
	if t == nil {
		return ""
	}
	return t.f.Name()
}

// Close closes the transcript, if there is one.
func (t *Transcript) Close() error {
	if t == nil {
		return nil
	}
	return t.f.Close()
}

// CreateTranscript creates the file that receives a player's conversation, in TranscriptDir,
// named after the engine, the worker and a number unique in this process. It returns nil when
// the run keeps no transcripts.
func (env StartEnv) CreateTranscript(engine string) (*Transcript, error) {
	if env.TranscriptDir == "" {
		return nil, nil
	}
	if err := os.MkdirAll(env.TranscriptDir, 0o755); err != nil {
		return nil, fmt.Errorf("arbiter: transcripts: %w", err)
	}
	safe := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\: `, r) {
			return '_'
		}
		return r
	}, engine)
	name := fmt.Sprintf("%s-w%d-%03d.log", safe, env.Worker, transcriptSeq.Add(1))
	f, err := os.Create(filepath.Join(env.TranscriptDir, name))
	if err != nil {
		return nil, fmt.Errorf("arbiter: transcripts: %w", err)
	}
	return &Transcript{f}, nil
}
