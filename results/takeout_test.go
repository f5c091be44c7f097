package results

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hivearbiter/internal/testkit/testenv"
)

// TestRecordWorker: a record names its worker when it has one, says nothing of it when it has
// none, and a line of an older arbiter, without the field, still reads.
func TestRecordWorker(t *testing.T) {
	r := sampleRecord(0)
	b, err := json.Marshal(&r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"worker"`) {
		t.Errorf("a local game's record names a worker: %s", b)
	}
	r.Worker = "w1"
	if b, err = json.Marshal(&r); err != nil {
		t.Fatal(err)
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil || back.Worker != "w1" {
		t.Errorf("read back: worker %q, %v; want w1", back.Worker, err)
	}
}

// TestTakeOut: the records a predicate selects leave the file for the file aside, in order,
// each line as it was; the rest stays as it was, a line that is not a record and a cut-short
// last line with it; a second take-out appends to the file aside; a file that does not exist
// is not created; a file a run writes is refused and left alone.
func TestTakeOut(t *testing.T) {
	dir := testenv.TempDir(t)
	path, aside := filepath.Join(dir, "games.jsonl"), filepath.Join(dir, "games.excluded.jsonl")
	line := func(game int, worker string) string {
		r := sampleRecord(game)
		r.Worker = worker
		b, err := json.Marshal(&r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	lines := []string{line(0, "w1"), line(1, "w2"), line(2, "w1"), "not a record\n", line(3, ""), line(4, "w2"), `{"schema":1,"ga`}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	of := func(worker string) func(*Record) bool {
		return func(r *Record) bool { return r.Worker == worker }
	}
	for _, tc := range []struct {
		worker          string
		games           []int
		left, wantAside []string
	}{
		{"w1", []int{0, 2}, []string{lines[1], lines[3], lines[4], lines[5], lines[6]}, []string{lines[0], lines[2]}},
		{"w3", nil, []string{lines[1], lines[3], lines[4], lines[5], lines[6]}, []string{lines[0], lines[2]}},
		{"w2", []int{1, 4}, []string{lines[3], lines[4], lines[6]}, []string{lines[0], lines[2], lines[1], lines[5]}},
	} {
		taken, err := TakeOut(path, aside, of(tc.worker))
		if err != nil {
			t.Fatalf("taking out %s: %v", tc.worker, err)
		}
		var games []int
		for _, r := range taken {
			games = append(games, r.Game)
		}
		if !slices.Equal(games, tc.games) {
			t.Errorf("taking out %s: games %v, want %v", tc.worker, games, tc.games)
		}
		if b, _ := os.ReadFile(path); string(b) != strings.Join(tc.left, "") {
			t.Errorf("after taking out %s, the file holds\n%s\nwant\n%s", tc.worker, b, strings.Join(tc.left, ""))
		}
		if b, _ := os.ReadFile(aside); string(b) != strings.Join(tc.wantAside, "") {
			t.Errorf("after taking out %s, the file aside holds\n%s\nwant\n%s", tc.worker, b, strings.Join(tc.wantAside, ""))
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "games.jsonl.new-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}

	missing := filepath.Join(dir, "missing.jsonl")
	if _, err := TakeOut(missing, aside, of("w1")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("taking out of a file that does not exist: %v, want os.ErrNotExist", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("taking out of a file that does not exist created it")
	}
	path = filepath.Join(dir, "live.jsonl")
	if err := os.WriteFile(path, []byte(lines[0]+lines[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	log, _, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	before, _ := os.ReadFile(path)
	var locked *LockedError
	if _, err := TakeOut(path, aside, func(*Record) bool { return true }); !errors.As(err, &locked) {
		t.Errorf("taking out of a file a run writes: %v, want a *LockedError", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a refused take-out changed the file")
	}
}
