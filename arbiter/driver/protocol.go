package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
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

var (
	protocolsMu sync.RWMutex
	protocols   = map[string]Protocol{}
)

// Register makes a protocol available under a name (as in proto=NAME). It panics when
// the name is taken, as database/sql's Register does: that is a programming error.
func Register(name string, p Protocol) {
	protocolsMu.Lock()
	defer protocolsMu.Unlock()
	if _, dup := protocols[name]; dup || p == nil {
		panic("driver: Register called twice, or with nil, for " + name)
	}
	protocols[name] = p
}

// Protocols lists the registered protocols' names, sorted.
func Protocols() []string {
	protocolsMu.RLock()
	defer protocolsMu.RUnlock()
	names := make([]string, 0, len(protocols))
	for n := range protocols {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Setting is one of a protocol's own engine settings (fractional for UHP), with the values it
// takes, for suggestions and shell completion.
type Setting struct {
	Name   string
	Values []string
}

// SettingLister is a Protocol that names its own engine settings. The protocol owns them: its
// Validate validates them; a configuration only carries them, and asks the registry for their
// names to suggest one that was misspelled.
type SettingLister interface {
	Settings() []Setting
}

// Settings lists the settings of every registered protocol that names its own, by
// protocol name, then in each protocol's order.
func Settings() []Setting {
	var all []Setting
	for _, name := range Protocols() {
		p, _ := Lookup(name)
		if l, ok := p.(SettingLister); ok {
			all = append(all, l.Settings()...)
		}
	}
	return all
}

// SettingNames are the names of Settings, each once.
func SettingNames() []string {
	var names []string
	for _, s := range Settings() {
		if !slices.Contains(names, s.Name) {
			names = append(names, s.Name)
		}
	}
	return names
}

// Lookup finds a registered protocol.
func Lookup(name string) (Protocol, error) {
	protocolsMu.RLock()
	p, ok := protocols[name]
	protocolsMu.RUnlock()
	if !ok {
		known := Protocols()
		if len(known) == 0 {
			return nil, &ConfigError{fmt.Sprintf("protocol %q: no protocol is registered in this program", name)}
		}
		return nil, &ConfigError{fmt.Sprintf("protocol %q: want one of %s", name, strings.Join(known, ", "))}
	}
	return p, nil
}

// Validate checks an engine's configuration against its protocol, before any game: the
// protocol is registered, every protocol setting (key=value) is one the protocol lists
// (SettingLister; a protocol that lists none has none), and the protocol's own Validate
// passes. An unknown setting is refused in the same words for every protocol, with the closest
// setting the protocol lists.
func Validate(e EngineConfig) error {
	p, err := Lookup(e.ProtocolName())
	if err != nil {
		return err
	}
	var known []string
	if l, ok := p.(SettingLister); ok {
		for _, s := range l.Settings() {
			known = append(known, s.Name)
		}
	}
	if unknown := e.UnknownSettings(known...); len(unknown) > 0 {
		return unknownSettings(e.ProtocolName(), unknown, known)
	}
	return p.Validate(e)
}

// unknownSettings is the error of settings that a protocol does not list.
func unknownSettings(protocol string, unknown, known []string) error {
	what := fmt.Sprintf("proto=%s has no setting %s", protocol, strings.Join(unknown, ", "))
	switch near, ok := ClosestName(unknown[0], known); {
	case ok:
		what += fmt.Sprintf(": did you mean %s?", near)
	case len(known) == 0:
		what += " (it has none; an engine's own options are option.NAME=VALUE)"
	default:
		what += fmt.Sprintf(" (its settings: %s; an engine's own options are option.NAME=VALUE)", strings.Join(known, ", "))
	}
	return &ConfigError{Msg: what}
}

// Start starts a player for an engine through its protocol.
func Start(ctx context.Context, e EngineConfig, env StartEnv) (Player, error) {
	p, err := Lookup(e.ProtocolName())
	if err != nil {
		return nil, err
	}
	return p.Start(ctx, e, env)
}

// ClosestName returns the name among known that a mistyped name most likely meant: the nearest
// by edit distance, if it is near enough (at most 2 edits, fewer for short names), or one that
// differs only in case, underscores and dashes (fractional_seconds for fractional-seconds).
func ClosestName(name string, known []string) (string, bool) {
	squash := func(s string) string {
		return strings.NewReplacer("_", "", "-", "", ".", "").Replace(strings.ToLower(s))
	}
	best, bestDistance := "", -1
	for _, k := range known {
		if squash(k) == squash(name) {
			return k, true
		}
		if d := editDistance(strings.ToLower(name), strings.ToLower(k)); bestDistance < 0 || d < bestDistance {
			best, bestDistance = k, d
		}
	}
	limit := 2
	if len(name) <= 4 {
		limit = 1
	}
	if bestDistance < 0 || bestDistance > limit {
		return "", false
	}
	return best, true
}

// editDistance is the optimal string alignment distance between a and b, in bytes: the edits
// are an insertion, a deletion, a substitution and a swap of two neighbours (nmae for name).
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

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
