package hiveapi

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/driver"
)

// TestCheckSettings checks the engine settings a Hive API module takes. Node's fork channel is
// a Unix socket pair, so on Windows transport=ipc is refused, naming the transports that work
// there (.ci/wine-smoke runs this test under wine).
func TestCheckSettings(t *testing.T) {
	st := driver.TimeControl{MoveTime: time.Second}
	ipcWant := ""
	if runtime.GOOS == "windows" {
		ipcWant = "cannot make on windows: use transport=stdio (one JSON object per line) or addr=HOST:PORT (TCP)"
	}
	tests := []struct {
		e    driver.EngineConfig
		want string // "" for valid settings
	}{
		{driver.EngineConfig{Command: []string{"node"}, Settings: map[string]string{"transport": "stdio"}, Time: st}, ""},
		{driver.EngineConfig{Command: []string{"node"}, Settings: map[string]string{"transport": "ipc"}, Time: st}, ipcWant},
		{driver.EngineConfig{Addr: "localhost:7000", Time: st}, ""},
		{driver.EngineConfig{Command: []string{"node"}, Addr: "localhost:7000", Time: st}, ""},
		{driver.EngineConfig{Command: []string{"node"}, Time: st}, "needs a transport"},
		{driver.EngineConfig{Time: st}, "is a program"},
		{driver.EngineConfig{Settings: map[string]string{"transport": "ipc"}, Time: st}, "give cmd=PROGRAM"},
		{driver.EngineConfig{Command: []string{"node"}, Settings: map[string]string{"transport": "pigeon"}, Time: st}, "transport=pigeon"},
		{driver.EngineConfig{Addr: "localhost", Time: st}, "want HOST:PORT"},
		{driver.EngineConfig{Addr: "localhost:1", Settings: map[string]string{"transport": "stdio"}, Time: st}, "does not go with it"},
		{driver.EngineConfig{Command: []string{"node"}, Settings: map[string]string{"transport": "stdio", "fractional": "true"}, Time: st}, "proto=hiveapi has no setting fractional"},
		{driver.EngineConfig{Command: []string{"node"}, Settings: map[string]string{"transport": "stdio"}, Time: driver.TimeControl{Depth: 3}}, "no depth or node limit"},
		{driver.EngineConfig{Command: []string{"node"}, Settings: map[string]string{"transport": "stdio"}, Options: []driver.EngineOption{{Name: "Hash", Value: "1"}}, Time: st}, "no engine options"},
	}
	for _, tt := range tests {
		tt.e.Protocol = "hiveapi"
		err := driver.Validate(tt.e)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%+v: %v", tt.e, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%+v: %v, want %q", tt.e, err, tt.want)
		}
	}
}
