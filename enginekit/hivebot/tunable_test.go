package hivebot

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"hivearbiter/enginekit/search"
)

// benchSignature is bench's node count by depth on one thread with the default weights, as
// it was before the weights became options (1300818 at the default depth 5): a change of a
// default changes it, but for Tempo's, which shifts every leaf alike (the transcripts' golden
// "options" replies pin every default).
var benchSignature = map[int]int64{3: 32914, 4: 179033}

// TestBenchUnchangedByOptions: the weights as options left the defaults, and so the search,
// as they were: bench counts the nodes it counted before. Depth 3 under the race detector,
// which makes depth 4 take most of a minute.
func TestBenchUnchangedByOptions(t *testing.T) {
	depth := 4
	if raceEnabled {
		depth = 3
	}
	res, err := Bench(context.Background(), depth, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes != benchSignature[depth] {
		t.Errorf("bench at depth %d: %d nodes, want %d", depth, res.Nodes, benchSignature[depth])
	}
}

// TestTunableOptions: every evaluation weight is an integer option with its default and
// range, listed and set over UHP; a value out of range is clamped; and an engine's weights
// are its own (two engines in one process do not share them).
func TestTunableOptions(t *testing.T) {
	s := startSession(t)
	defer s.close(t)
	listed := map[string]string{}
	for _, line := range s.send(t, "options") {
		name, _, _ := strings.Cut(line, ";")
		listed[name] = line
	}
	for _, p := range search.Params() {
		d := strconv.Itoa(p.Default())
		want := strings.Join([]string{p.Name, "int", d, d, strconv.Itoa(p.Min), strconv.Itoa(p.Max)}, ";")
		if listed[p.Name] != want {
			t.Errorf("options lists %q, want %q", listed[p.Name], want)
		}
	}
	for _, c := range []struct{ set, want string }{
		{"options set InPlayAnt 5", "InPlayAnt;int;5;32;0;128"},
		{"options set inplayant 999", "InPlayAnt;int;128;32;0;128"},
		{"options set Aggression 9", "Aggression;int;5;3;1;5"},
		{"options set SoftTimePercent 70", "SoftTimePercent;int;70;50;10;100"},
		{"options set Tempo x", "Tempo;int;6;6;0;40"},
	} {
		if got := s.send(t, c.set); len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: %q, want %q", c.set, got, c.want)
		}
	}

	a, b := New(Config{}), New(Config{})
	if _, err := a.SetOption("Surround5", "12"); err != nil {
		t.Fatal(err)
	}
	if o, _ := b.GetOption("Surround5"); o.Value != "70" {
		t.Errorf("setting one engine's Surround5 made another's %s", o.Value)
	}
	if w := a.searcher.Weights(); w.Surround[5] != 12 {
		t.Errorf("the searcher's Surround5 is %d after the option set it to 12", w.Surround[5])
	}
	// Over UGI, setoption reaches the same weights.
	if err := (ugiSearcher{b}).SetOption("HoleThreat", "20"); err != nil {
		t.Fatal(err)
	}
	if w := b.searcher.Weights(); w.HoleThreat != 20 {
		t.Errorf("UGI setoption HoleThreat 20: the searcher has %d", w.HoleThreat)
	}
}
