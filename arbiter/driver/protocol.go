package driver

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"hivearbiter/internal/proc"
)

// DefaultProtocol is the protocol of an engine whose settings name none.
const DefaultProtocol = "uhp"

// Protocol starts the players of one protocol. Each protocol lives in its own package, which
// registers it by name from an init function; the arbiter never imports one.
type Protocol interface {
	// Validate judges the settings of an engine of this protocol before any game is played:
	// how it is reached (a command or an address) and the values of its protocol settings.
	// Settings it does not list (SettingLister) never reach it: package function Validate,
	// which callers use, refuses them first.
	Validate(e EngineConfig) error
	// Start starts a player and completes the protocol's handshake. The context bounds the
	// start-up.
	Start(ctx context.Context, e EngineConfig, env StartEnv) (Player, error)
}

// Locator is a Protocol that can tell before a run, beyond the settings Validate judges, whether
// an engine can be reached at all: that its program exists and can be run, say. Validate leaves
// that out, because a configuration is also read on machines that do not run it (stats,
// shards prepared elsewhere).
type Locator interface {
	Locate(e EngineConfig) error
}

// Locate asks the engine's protocol whether the engine can be reached, so that a run can
// refuse a missing program before its first game. A protocol that is no Locator has an engine
// started as a program (cmd=) checked as internal/proc would start it; a player reached at an
// address alone cannot be checked before it is reached, and is nil.
func Locate(e EngineConfig) error {
	p, err := Lookup(e.ProtocolName())
	if err != nil {
		return err
	}
	if l, ok := p.(Locator); ok {
		return l.Locate(e)
	}
	if len(e.Command) == 0 {
		return nil
	}
	if err := proc.Locate(e.Command[0], e.Dir); err != nil {
		return &ConfigError{Msg: fmt.Sprintf("engine %q: %v: give cmd= the path of the engine's program (a relative path is taken from dir=, or the current directory)", e.Name, err)}
	}
	return nil
}

// LocateAll is Locate of every engine, before anything is played or written: each engine that
// cannot be reached, in the words of its Message, joined (errors.Join); nil when all can.
func LocateAll(engines []EngineConfig) error {
	var problems []error
	for _, e := range engines {
		if err := Locate(e); err != nil {
			problems = append(problems, errors.New(Message(err)))
		}
	}
	return errors.Join(problems...)
}

// StartEnv is what a protocol is told about where its player will run.
type StartEnv struct {
	// Worker numbers the worker that will own the player, so that transcripts can be told apart.
	Worker int
	// TranscriptDir, if set, receives a transcript of the player's conversation.
	TranscriptDir string
	// Grace is how long a player is given to exit or answer after being asked to stop, before
	// it is killed.
	Grace time.Duration
	// Memo keeps what a protocol learns of an engine by asking it (UHP's probe of how it reads
	// time) for the players started after it, as long as the run's seats; nil keeps nothing.
	Memo *Memo
}

// Memo is what protocols learn of engines during one run, by key (a protocol's own: UHP's is
// the program, its directory and environment). It lives as long as the run's seats, never the
// process: an engine rebuilt in place between two runs of a long-lived worker is asked again.
// A nil *Memo keeps nothing: every call computes. It is safe for concurrent use.
type Memo struct {
	entries sync.Map // key -> *memoEntry
}

type memoEntry struct {
	mu    sync.Mutex
	done  bool
	value any
}

// Once returns what is kept under key, or computes it with learn and keeps it when learn
// succeeds; a failure is not kept, so the next caller tries again. Callers of one key wait for
// the one computing it.
func (m *Memo) Once(key string, learn func() (any, error)) (any, error) {
	if m == nil {
		return learn()
	}
	v, _ := m.entries.LoadOrStore(key, &memoEntry{})
	e := v.(*memoEntry)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.done {
		return e.value, nil
	}
	value, err := learn()
	if err != nil {
		return nil, err
	}
	e.value, e.done = value, true
	return value, nil
}
