package compliance

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// The margin covers the slowest of a handful of searches, not the first: an engine whose
// overshoot varies from search to search gets one that covers its worst, with room for load;
// with nothing measured the sentence says so, with no figure.
func TestMarginFor(t *testing.T) {
	ms := func(d ...int) []time.Duration {
		var out []time.Duration
		for _, x := range d {
			out = append(out, time.Duration(x)*time.Millisecond)
		}
		return out
	}
	tests := []struct {
		overshoots []Overshoot
		margin     time.Duration
		says       string
	}{
		{nil, 500 * time.Millisecond, "margin 0.5 s, the least: its overshoot was not measured"},
		{[]Overshoot{{Budget: time.Second}}, 500 * time.Millisecond, "not measured"},
		{[]Overshoot{{Budget: time.Second, Samples: ms(135)}}, 600 * time.Millisecond, "margin 0.6 s: 1 search of 1 s ran over by 0.135 s"},
		{[]Overshoot{{Budget: time.Second, Samples: ms(4, 0, 300, 0, 50)}}, 900 * time.Millisecond,
			"margin 0.9 s: 5 searches of 1 s ran over by median 0.004 s, max 0.300 s"},
		{[]Overshoot{{Budget: time.Second, Samples: ms(10, 20, 30, 40, 50)}, {Budget: 200 * time.Millisecond, Samples: ms(430, 0)}},
			1200 * time.Millisecond, "; 2 searches of 0.2 s ran over by median 0.000 s, max 0.430 s"},
	}
	for _, tt := range tests {
		m, why := MarginFor(tt.overshoots)
		if m != tt.margin || !strings.Contains(why, tt.says) {
			t.Errorf("MarginFor(%v) = %v, %q; want %v, saying %q", tt.overshoots, m, why, tt.margin, tt.says)
		}
		for _, o := range tt.overshoots {
			for _, s := range o.Samples {
				if m < s+loadAllowance {
					t.Errorf("margin %v does not cover an overshoot of %v and the load", m, s)
				}
			}
		}
	}
}

// An overshoot that grows through a game is named with its trend, and its margin is doubled
// again: the game measured ends long before a match's do. One that wanders without a trend
// (or grows by a few milliseconds only) is not.
func TestMarginForAGrowingOvershoot(t *testing.T) {
	game := func(over func(move int) time.Duration) Overshoot {
		o := Overshoot{Budget: time.Second, AtOnce: 2}
		for move := 1; move <= 20; move++ {
			for range 2 { // two games at once
				o.Samples = append(o.Samples, over(move))
				o.Moves = append(o.Moves, move)
			}
		}
		return o
	}
	tests := []struct {
		name   string
		o      Overshoot
		margin time.Duration
		says   []string
		not    string
	}{
		{"grows", game(func(m int) time.Duration { return time.Duration(m) * 20 * time.Millisecond }),
			1900 * time.Millisecond, // 4 × 0.400 s + 0.25 s, rounded up
			[]string{"40 searches of 1 s through moves 1 to 20 of 2 games at once ran over by median 0.200 s, max 0.400 s",
				"growing from 0.060 s (median of moves 1 to 6) to 0.340 s (moves 15 to 20)", "doubled again as its overshoot grew"}, ""},
		{"steady", game(func(m int) time.Duration { return time.Duration(100+(m%3)*10) * time.Millisecond }),
			500 * time.Millisecond, // 2 × 0.120 s + 0.25 s = 0.49 s, and at least 0.5 s
			[]string{"twice the slowest of them (0.120 s)"}, "growing"},
		{"a few milliseconds", game(func(m int) time.Duration { return time.Duration(m) * time.Millisecond }),
			500 * time.Millisecond, []string{"max 0.020 s"}, "doubled again"},
	}
	for _, tt := range tests {
		m, why := MarginFor([]Overshoot{tt.o})
		if m != tt.margin {
			t.Errorf("%s: margin %v, want %v: %s", tt.name, m, tt.margin, why)
		}
		for _, s := range tt.says {
			if !strings.Contains(why, s) {
				t.Errorf("%s: %q does not say %q", tt.name, why, s)
			}
		}
		if tt.not != "" && strings.Contains(why, tt.not) {
			t.Errorf("%s: %q says %q", tt.name, why, tt.not)
		}
	}
}

// Of a hundred searches and more, the margin covers the 99th percentile, not one outlier.
func TestMarginForCoversThe99thPercentile(t *testing.T) {
	o := Overshoot{Budget: time.Second}
	for i := range 200 {
		o.Samples = append(o.Samples, time.Duration(i)*time.Millisecond) // 0 to 199 ms
	}
	o.Samples[0] = 5 * time.Second // one search the machine stalled
	m, why := MarginFor([]Overshoot{o})
	// The 99th percentile of 200 is the 198th smallest: 0.198 s; doubled and 0.25 s: 0.646 s.
	if m != 700*time.Millisecond || !strings.Contains(why, "twice the 99th percentile of them (0.198 s)") {
		t.Errorf("MarginFor of 200 searches = %v, %q", m, why)
	}
}

// A list or a gate reads the margin a check advised from its rows.
func TestMarginChecked(t *testing.T) {
	checks := []Result{{Name: "game type for match", Settings: []string{"-gametype=Base"}},
		{Name: "time setting for match", Settings: []string{"fractional=true", "interrupt=false", "margin=1.9"}}}
	if m, ok := MarginChecked(checks); !ok || m != 1900*time.Millisecond {
		t.Errorf("MarginChecked = %v, %v; want 1.9 s", m, ok)
	}
	if m, ok := MarginChecked(checks[:1]); ok {
		t.Errorf("MarginChecked of no time setting = %v, true", m)
	}
}

// MarginChecked reads any setting without failing, and a margin it reads is positive and the
// one written, to the millisecond.
func FuzzMarginChecked(f *testing.F) {
	for _, s := range []string{"margin=0.5", "margin=1.9", "margin=", "margin=-1", "margin=NaN", "margin=1e400", "margin=1e10", "margin=0.0001", "fractional=true"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, setting string) {
		m, ok := MarginChecked([]Result{{Name: "time setting for match", Settings: []string{setting}}})
		if !ok {
			return
		}
		if m <= 0 {
			t.Fatalf("MarginChecked(%q) = %v, true", setting, m)
		}
		again, ok := MarginChecked([]Result{{Settings: []string{"margin=" + strconv.FormatFloat(m.Seconds(), 'f', -1, 64)}}})
		if !ok || again != m {
			t.Fatalf("MarginChecked(%q) = %v; written back, %v", setting, m, again)
		}
	})
}
