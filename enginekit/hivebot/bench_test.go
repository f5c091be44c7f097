package hivebot

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hivearbiter/enginekit/search"
	"hivearbiter/rules"
)

// benchFields reads a bench summary line into its key=value fields.
func benchFields(t *testing.T, line string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, f := range strings.Fields(line) {
		k, v, ok := strings.Cut(f, "=")
		n, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil {
			t.Fatalf("bench line %q: field %q is not key=integer", line, f)
		}
		out[k] = n
	}
	return out
}

// TestBenchDeterministic: on one thread, bench counts the same nodes every time, through the
// function, the UHP command and the subcommand alike, and plays a legal move everywhere.
func TestBenchDeterministic(t *testing.T) {
	const depth = 3
	var moves []string
	first, err := Bench(context.Background(), depth, 1, func(i int, g *rules.Game, r search.Result) {
		if !slices.Contains(g.ValidMoves(), r.Move) {
			t.Errorf("position %d: move %x is not legal", i+1, r.Move)
		}
		moves = append(moves, g.MoveString(r.Move))
	})
	if err != nil {
		t.Fatal(err)
	}
	if first.Nodes == 0 || first.Positions != len(benchPositions) || len(moves) != len(benchPositions) {
		t.Fatalf("bench: %v after %d positions", first, len(moves))
	}
	again, err := Bench(context.Background(), depth, 1, nil)
	if err != nil || again.Nodes != first.Nodes {
		t.Fatalf("bench again: %d nodes (%v), first %d", again.Nodes, err, first.Nodes)
	}

	s := startSession(t)
	defer s.close(t)
	reply := s.send(t, "bench "+strconv.Itoa(depth))
	if len(reply) != 1 {
		t.Fatalf("bench reply %q, want one line", reply)
	}
	f := benchFields(t, reply[0])
	if f["nodes"] != first.Nodes || f["depth"] != depth || f["threads"] != 1 || f["positions"] != int64(len(benchPositions)) {
		t.Errorf("UHP bench %q, want %d nodes at depth %d", reply[0], first.Nodes, depth)
	}
	if got := s.send(t, "bench deep"); len(got) != 1 || !strings.HasPrefix(got[0], "err ") {
		t.Errorf("bench deep: %q, want err", got)
	}

	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"bench", "-depth", strconv.Itoa(depth)}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("hivebot bench: exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != len(benchPositions)+1 {
		t.Fatalf("hivebot bench printed %d lines, want %d:\n%s", len(lines), len(benchPositions)+1, stdout.String())
	}
	for i, m := range moves {
		if !strings.Contains(lines[i], ": "+m+" ") {
			t.Errorf("hivebot bench line %q, want move %s", lines[i], m)
		}
	}
	if f := benchFields(t, lines[len(lines)-1]); f["nodes"] != first.Nodes {
		t.Errorf("hivebot bench summary %q, want %d nodes", lines[len(lines)-1], first.Nodes)
	}
}

// TestBenchThreads: with two threads bench still answers, counting every thread's nodes.
func TestBenchThreads(t *testing.T) {
	res, err := Bench(context.Background(), 2, 2, nil)
	if err != nil || res.Threads != 2 || res.Nodes == 0 {
		t.Fatalf("bench on two threads: %v, %v", res, err)
	}
}

// TestBenchInterrupted: a cancelled bench is an error, not a short count.
func TestBenchInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Bench(ctx, 3, 1, nil); err == nil {
		t.Fatal("cancelled bench: no error")
	}
}

// TestBenchDepthFlag: -bench-depth sets the depth of a UHP bench given none (as arbiter check
// sends it), which "help bench" states; a depth given with the command still wins, and a
// depth out of range is refused at the start.
func TestBenchDepthFlag(t *testing.T) {
	s := startSession(t, "-bench-depth", "2")
	defer s.close(t)
	reply := s.send(t, "bench")
	if len(reply) != 1 || benchFields(t, reply[0])["depth"] != 2 {
		t.Errorf("bench under -bench-depth 2: %q, want depth=2", reply)
	}
	if reply := s.send(t, "bench 1"); len(reply) != 1 || benchFields(t, reply[0])["depth"] != 1 {
		t.Errorf("bench 1 under -bench-depth 2: %q, want depth=1", reply)
	}
	if help := strings.Join(s.send(t, "help bench"), "\n"); !strings.Contains(help, "depth N (2 by default)") {
		t.Errorf("help bench under -bench-depth 2:\n%s", help)
	}
	for _, bad := range []string{"0", "-1", strconv.Itoa(maxDepthLimit + 1)} {
		var stderr bytes.Buffer
		if code := Main(context.Background(), []string{"-bench-depth", bad}, strings.NewReader(""), io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "-bench-depth from 1 to") {
			t.Errorf("-bench-depth %s: exit %d, %q", bad, code, stderr.String())
		}
	}
}
