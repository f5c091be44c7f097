//go:build unix

package hiveapi

import (
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/testkit/testenv"
	"hivearbiter/results"
)

// nodeModule is the engine configuration of a JavaScript module in testdata, run by Node
// through one of the wrappers there.
func nodeModule(t *testing.T, node, transport, module string) driver.EngineConfig {
	e := driver.EngineConfig{Name: module, Protocol: Name,
		Command: []string{node, "testdata/" + transport + ".js", "testdata/" + module + ".js"},
		Time:    driver.TimeControl{MoveTime: 3 * time.Second}, Margin: time.Second}
	if transport == TransportTCP {
		e.Addr = testenv.FreeAddr(t)
		_, port, _ := strings.Cut(e.Addr, ":")
		e.Command = append(e.Command, port)
	} else {
		e.Settings = map[string]string{SettingTransport: transport}
	}
	if err := (Protocol{}).Validate(e); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestNodeModule runs a module written in JavaScript (testdata/forager.js) under Node over
// each transport, in refereed games, and a module that throws, which must lose saying what it
// threw.
func TestNodeModule(t *testing.T) {
	node := testenv.NeedNode(t)
	for _, transport := range []string{TransportIPC, TransportStdio, TransportTCP} {
		t.Run(transport, func(t *testing.T) {
			rec := playGame(t, nodeModule(t, node, transport, "forager"), fakeEngine(t, "random", TransportStdio, "random"))
			if rec.Reason.IsFault() || len(rec.Moves) < 2 {
				t.Fatalf("%s after %d moves: %s: %s", rec.Result, len(rec.Moves), rec.Reason, rec.Detail)
			}
			if !strings.HasPrefix(rec.White.ID, "forager 1.0.0 by Hive Arbiter tests") {
				t.Errorf("White's ID is %q", rec.White.ID)
			}
			t.Logf("%s after %d plies: %s", rec.Result, len(rec.Moves), rec.Detail)
		})
		t.Run(transport+"/throws", func(t *testing.T) {
			rec := playGame(t, nodeModule(t, node, transport, "broken"), fakeEngine(t, "random", TransportStdio, "random"))
			if rec.Culprit != "White" || rec.Reason != results.ReasonCrash || !strings.Contains(rec.Detail, "TypeError") {
				t.Fatalf("%s: %s: %s; want White to lose by a crash naming the TypeError", rec.Result, rec.Reason, rec.Detail)
			}
		})
	}
}
