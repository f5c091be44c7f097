package results

import (
	"strconv"
	"strings"
)

// Timing is one engine's thinking time over the games it played: what an engine author looks
// at to see whether it manages its clock, before any game is lost on time.
type Timing struct {
	Name string
	// Moves counts the engine's recorded moves; MillisTotal and MillisMax are the thinking
	// time they took.
	Moves       int
	MillisTotal int64
	MillisMax   int64
	// Overruns counts the moves that took longer than the budget the arbiter allowed but were
	// forgiven because they ended within the margin. A move beyond the margin loses the game
	// and is counted among the faults instead.
	Overruns int
	// Faults counts the games the engine lost by misbehaving (time forfeits, crashes, ...).
	Faults int
}

// MeanMillis is the average thinking time per move, in milliseconds.
func (t *Timing) MeanMillis() float64 {
	if t.Moves == 0 {
		return 0
	}
	return float64(t.MillisTotal) / float64(t.Moves)
}

// Timings adds up the thinking time of every engine, in the order of the tally's players.
// Like a Tally it is built one record at a time and keeps only counts.
type Timings struct {
	Engines []*Timing
	byName  map[string]*Timing
}

// NewTimings returns the timings of records, listing the players named in order first.
func NewTimings(recs []Record, order []string) *Timings {
	ts := &Timings{byName: make(map[string]*Timing)}
	for _, name := range order {
		ts.engine(name)
	}
	for i := range recs {
		ts.Add(&recs[i])
	}
	return ts
}

func (ts *Timings) engine(name string) *Timing {
	if t := ts.byName[name]; t != nil {
		return t
	}
	t := &Timing{Name: name}
	ts.byName[name] = t
	ts.Engines = append(ts.Engines, t)
	return t
}

// Add counts the moves of one record. The moves alternate sides from the side to move after
// the opening; the budget of each move is rebuilt from the side's time control and, on a
// clock, from the time it had left before the move.
func (ts *Timings) Add(r *Record) {
	sides := [2]*Timing{ts.engine(r.White.Name), ts.engine(r.Black.Name)}
	controls := [2]TimeLimits{ParseTimeLimits(r.White.Time), ParseTimeLimits(r.Black.Time)}
	var clock [2]int64
	for s := range clock {
		clock[s] = controls[s].BaseMillis
	}
	side := openingPlies(r.Opening) % 2
	for _, m := range r.Moves {
		t := sides[side]
		t.Moves++
		t.MillisTotal += m.Millis
		t.MillisMax = max(t.MillisMax, m.Millis)
		allowed := controls[side].MoveMillis
		if controls[side].BaseMillis > 0 {
			allowed = clock[side]
		}
		if allowed > 0 && m.Millis > allowed {
			t.Overruns++
		}
		if m.ClockMillis != nil {
			clock[side] = *m.ClockMillis
		}
		side ^= 1
	}
	switch r.Culprit {
	case "White":
		sides[0].Faults++
	case "Black":
		sides[1].Faults++
	}
}

// TimeLimits is a time control as records write it ("st=1.5", "60+0.5", "depth=4"), in
// milliseconds: a fixed time per move, or a clock's base and increment. All are zero for a
// depth limit, or for text that is no time control.
type TimeLimits struct {
	MoveMillis      int64
	BaseMillis      int64
	IncrementMillis int64
}

// ParseTimeLimits reads a time control as records write it (Player.Time).
func ParseTimeLimits(tc string) TimeLimits {
	if s, ok := strings.CutPrefix(tc, "st="); ok {
		return TimeLimits{MoveMillis: millis(s)}
	}
	tc = strings.TrimPrefix(tc, "tc=")
	if strings.Contains(tc, "=") {
		return TimeLimits{}
	}
	base, inc, _ := strings.Cut(tc, "+")
	l := TimeLimits{BaseMillis: millis(base), IncrementMillis: millis(inc)}
	if l.BaseMillis == 0 {
		return TimeLimits{}
	}
	return l
}

func millis(seconds string) int64 {
	f, err := strconv.ParseFloat(seconds, 64)
	if err != nil || f <= 0 || f > 1e7 {
		return 0
	}
	return int64(f*1000 + 0.5)
}

// openingPlies is the number of moves in an opening GameString ("Base+MLP;InProgress;White[2];wS1;bS1").
func openingPlies(gameString string) int {
	return max(strings.Count(gameString, ";")-2, 0)
}
