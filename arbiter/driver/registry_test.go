package driver

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// listed is a protocol of the tests: it lists one setting, mode, and refuses mode=bad itself.
type listed struct{ locate error }

func (listed) Settings() []Setting { return []Setting{{Name: "mode", Values: []string{"a", "b"}}} }
func (listed) Validate(e EngineConfig) error {
	if e.Setting("mode") == "bad" {
		return &ConfigError{Msg: "mode=bad: want a or b"}
	}
	return nil
}
func (listed) Start(context.Context, EngineConfig, StartEnv) (Player, error) {
	return nil, errors.New("not started")
}
func (p listed) Locate(EngineConfig) error { return p.locate }

// bare is a protocol of the tests that lists no settings.
type bare struct{}

func (bare) Validate(EngineConfig) error { return nil }
func (bare) Start(context.Context, EngineConfig, StartEnv) (Player, error) {
	return nil, errors.New("not started")
}

func init() {
	Register("test-listed", listed{})
	Register("test-bare", bare{})
	Register("test-lost", listed{locate: &ConfigError{Msg: "engine \"x\": no such program"}})
}

// TestValidate: one check refuses the settings a protocol does not list, in the same words
// for every protocol, with the closest listed name; what the protocol lists reaches its own
// Validate.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		protocol string
		settings map[string]string
		want     string // "" for no error
	}{
		{"test-listed", map[string]string{"mode": "a"}, ""},
		{"test-listed", map[string]string{"mode": "bad"}, "mode=bad: want a or b"},
		{"test-listed", map[string]string{"mdoe": "a"}, "proto=test-listed has no setting mdoe: did you mean mode?"},
		{"test-listed", map[string]string{"depth": "3"}, "proto=test-listed has no setting depth (its settings: mode; an engine's own options are option.NAME=VALUE)"},
		{"test-bare", map[string]string{"mode": "a"}, "proto=test-bare has no setting mode (it has none; an engine's own options are option.NAME=VALUE)"},
		{"no-such-protocol", nil, `protocol "no-such-protocol": want one of`},
	} {
		err := Validate(EngineConfig{Protocol: tc.protocol, Command: []string{"x"}, Settings: tc.settings})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s %v: %v; want %q", tc.protocol, tc.settings, err, tc.want)
		}
	}
}

// TestLocateAll names every engine that cannot be reached, in its message's words, and none
// when all can.
func TestLocateAll(t *testing.T) {
	ok := EngineConfig{Protocol: "test-listed", Command: []string{"x"}}
	lost := EngineConfig{Protocol: "test-lost", Command: []string{"x"}}
	if err := LocateAll([]EngineConfig{ok, ok}); err != nil {
		t.Errorf("every engine found: %v", err)
	}
	err := LocateAll([]EngineConfig{lost, ok, lost})
	if err == nil || err.Error() != "engine \"x\": no such program\nengine \"x\": no such program" {
		t.Errorf("got %q; want each lost engine, without the package's name", err)
	}
}

// TestMemo: a value is learned once per key and kept; a failure is not kept; a nil Memo keeps
// nothing.
func TestMemo(t *testing.T) {
	calls := 0
	learn := func(v any, err error) func() (any, error) {
		return func() (any, error) { calls++; return v, err }
	}
	m := new(Memo)
	if _, err := m.Once("k", learn(nil, errors.New("no"))); err == nil {
		t.Fatal("a failure was not returned")
	}
	for range 2 {
		if v, err := m.Once("k", learn(7, nil)); v != 7 || err != nil {
			t.Fatalf("got %v, %v", v, err)
		}
	}
	if calls != 2 {
		t.Errorf("learned %d times; want twice (the failure, then once)", calls)
	}
	var none *Memo
	none.Once("k", learn(1, nil))
	none.Once("k", learn(1, nil))
	if calls != 4 {
		t.Errorf("a nil Memo kept a value (%d calls, want 4)", calls)
	}
}
