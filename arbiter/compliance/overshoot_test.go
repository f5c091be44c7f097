package compliance

import (
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
