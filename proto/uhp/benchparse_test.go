package uhp

import (
	"testing"
	"time"
)

// TestParseBench: a bench line gives its nodes, and its nodes per second as it says them or
// from its time; a line without nodes= is refused.
func TestParseBench(t *testing.T) {
	tests := []struct {
		line  string
		nodes int64
		nps   int64
		time  time.Duration
		ok    bool
	}{
		{"nodes=1234567 time=2000 nps=617283 depth=5 positions=5 threads=1", 1234567, 617283, 2 * time.Second, true},
		{"nodes=1000 time=500", 1000, 2000, 500 * time.Millisecond, true},
		{"nodes=1000", 1000, 0, 0, true},
		{"bench: nodes=77 junk nps=x", 77, 0, 0, true},
		{"time=500 nps=10", 0, 0, 0, false},
		{"", 0, 0, 0, false},
		{"nodes=-5", 0, 0, 0, false},
	}
	for _, tt := range tests {
		b, err := ParseBench(tt.line)
		if (err == nil) != tt.ok {
			t.Errorf("%q: error %v, want ok %v", tt.line, err, tt.ok)
			continue
		}
		if tt.ok && (b.Nodes != tt.nodes || b.NPS != tt.nps || b.Time != tt.time) {
			t.Errorf("%q: %+v, want nodes %d nps %d time %s", tt.line, b, tt.nodes, tt.nps, tt.time)
		}
	}
}

func FuzzParseBench(f *testing.F) {
	f.Add("nodes=1234567 time=2000 nps=617283 depth=5")
	f.Add("nodes=1 time=0")
	f.Add("nodes=9223372036854775807 time=1")
	f.Fuzz(func(t *testing.T, line string) {
		b, err := ParseBench(line)
		if err == nil && (b.Nodes < 0 || b.NPS < 0 || b.Time < 0) {
			t.Errorf("%q: %+v has a negative measure", line, b)
		}
	})
}
