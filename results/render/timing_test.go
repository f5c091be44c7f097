package render

import (
	"bytes"
	"testing"

	"hivearbiter/results"
)

// TestTimeTableGolden prints the timings that results' TestTimings counts of its three games.
func TestTimeTableGolden(t *testing.T) {
	ts := &results.Timings{Engines: []*results.Timing{
		{Name: "fixed", Moves: 6, MillisTotal: 400 + 620 + 100 + 500 + 90 + 480, MillisMax: 620, Overruns: 1},
		{Name: "clocked", Moves: 5, MillisTotal: 700 + 400 + 60 + 300 + 1500, MillisMax: 1500, Overruns: 1, Faults: 1},
		{Name: "deep", Moves: 2, MillisTotal: 5600, MillisMax: 3100, Faults: 1},
	}}
	var buf bytes.Buffer
	if err := WriteTimeTable(&buf, ts); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "time-table.txt", buf.Bytes())
}
