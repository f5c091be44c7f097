package driver

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

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
