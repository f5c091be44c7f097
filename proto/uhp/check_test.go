package uhp

import (
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/driver"
)

func TestCheckSettings(t *testing.T) {
	engine := func(tc driver.TimeControl, settings map[string]string) driver.EngineConfig {
		return driver.EngineConfig{Name: "e", Command: []string{"./engine"}, Time: tc, Settings: settings}
	}
	st := func(d time.Duration) driver.TimeControl { return driver.TimeControl{MoveTime: d} }
	tests := []struct {
		name    string
		engine  driver.EngineConfig
		problem string // "" when the engine is fine
	}{
		{"plain", engine(st(time.Second), nil), ""},
		{"fractional", engine(st(300*time.Millisecond), map[string]string{"fractional": "true"}), ""},
		{"sub-second without fractions", engine(st(300*time.Millisecond), nil), ""}, // rounded down, at least 1 s
		{"bad fractional", engine(st(time.Second), map[string]string{"fractional": "yes please"}), "want true, false or auto"},
		{"bad interrupt", engine(st(time.Second), map[string]string{"interrupt": "sometimes"}), "interrupt=sometimes: want true, false or auto"},
		{"auto", engine(st(time.Second), map[string]string{"fractional": "auto", "interrupt": "auto"}), ""},
		{"unknown setting", engine(st(time.Second), map[string]string{"transport": "ipc"}), "proto=uhp has no setting transport"},
		{"node limit", engine(driver.TimeControl{Nodes: 1000}, nil), "no node limit"},
		{"no command", driver.EngineConfig{Name: "e", Time: st(time.Second)}, "give cmd=PROGRAM"},
		{"an address", driver.EngineConfig{Name: "e", Addr: "127.0.0.1:9", Command: []string{"x"}, Time: st(time.Second)}, "addr= is not a UHP setting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := driver.Validate(tt.engine)
			switch {
			case tt.problem == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.problem != "" && (err == nil || !strings.Contains(err.Error(), tt.problem)):
				t.Errorf("got %v, want an error saying %q", err, tt.problem)
			}
		})
	}
	if _, err := driver.Lookup(Name); err != nil {
		t.Errorf("uhp is not registered: %v", err)
	}
}
