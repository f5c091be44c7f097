package arbiter

import (
	"runtime"
	"testing"

	"hivearbiter/arbiter/driver"
	"hivearbiter/openings"
	"hivearbiter/rules"
)

// soakSchedule is the schedule of the soak's run: a gauntlet of 8 engines, 358 rounds, 2,506
// game pairs of random 4-ply openings.
func soakSchedule(tb testing.TB) *Tournament {
	tb.Helper()
	engines := make([]driver.EngineConfig, 8)
	for i := range engines {
		engines[i] = driver.EngineConfig{Name: string(rune('a' + i)), Command: []string{"x"}}
	}
	book, err := openings.Load(openings.Config{RandomPlies: 4}, rules.BaseMLP, 28)
	if err != nil {
		tb.Fatal(err)
	}
	schedule, err := NewSchedule("gauntlet", len(engines), 1, 358, 2, book)
	if err != nil {
		tb.Fatal(err)
	}
	return &Tournament{cfg: Config{Engines: engines}, schedule: schedule}
}

// TestSetupWarningsMemory: what a run does before its banner allocates a few megabytes, not
// the 755 MB it did when every opening was drawn and read back on a new game.
func TestSetupWarningsMemory(t *testing.T) {
	tour := soakSchedule(t)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	tour.SetupWarnings(2)
	runtime.ReadMemStats(&after)
	if mb := float64(after.TotalAlloc-before.TotalAlloc) / 1e6; mb > 32 {
		t.Errorf("the setup warnings of 2,506 game pairs allocated %.0f MB", mb)
	}
}

// BenchmarkSetupWarnings is what a run with random openings does before its banner, at every
// start: the soak's schedule, 2,506 game pairs of 4-ply openings, drawn and checked for
// repeats.
func BenchmarkSetupWarnings(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		soakSchedule(b).SetupWarnings(2)
	}
}
