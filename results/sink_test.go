package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"hivearbiter/internal/testkit/testenv"
)

// lockedPlatform reports whether records files are locked here (lock_unix.go, lock_windows.go);
// elsewhere two writers are not kept apart, and the tests of it cannot hold.
func lockedPlatform() bool {
	switch runtime.GOOS {
	case "darwin", "dragonfly", "freebsd", "linux", "netbsd", "openbsd", "windows":
		return true
	}
	return false
}

// writerRecord is game i of the writer named name: its White says whose it is.
func writerRecord(name string, i int) Record {
	r := sampleRecord(i)
	r.Run, r.White.Name = name, name
	return r
}

// TestSinksDoNotInterleave: a tournament's sink (which rebuilds its PGN from the records) and
// arbiter serve's (which appends to it) write games to one records file and one PGN file at
// once, each opening its sink for every game as a resumed run and a new serve session do. The
// lock lets one writer in at a time: every game of both is in the records once, whole, and
// the PGN holds the same games in the same order.
func TestSinksDoNotInterleave(t *testing.T) {
	if !lockedPlatform() {
		t.Skipf("records files are not locked on %s", runtime.GOOS)
	}
	dir := testenv.TempDir(t)
	records, pgn := filepath.Join(dir, "games.jsonl"), filepath.Join(dir, "games.pgn")
	const games = 25
	writers := map[string]SinkOptions{
		"tournament": {PGN: pgn, Event: "E", RebuildPGN: true},
		"serve":      {PGN: pgn, Event: "E"},
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(writers))
	for name, opts := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < games; i++ {
				sink, err := openWhenFree(records, opts)
				if err != nil {
					errs <- fmt.Errorf("%s, game %d: %w", name, i, err)
					return
				}
				r := writerRecord(name, i)
				err = sink.Append(&r)
				if cerr := sink.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					errs <- fmt.Errorf("%s, game %d: %w", name, i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	recs, err := ReadFile(records)
	if err != nil {
		t.Fatal(err)
	}
	next := map[string]int{}
	var whites []string
	for _, r := range recs {
		if r.Game != next[r.Run] {
			t.Errorf("%s's game %d follows its game %d", r.Run, r.Game, next[r.Run]-1)
		}
		next[r.Run] = r.Game + 1
		whites = append(whites, r.White.Name)
	}
	if len(recs) != 2*games || next["tournament"] != games || next["serve"] != games {
		t.Errorf("%d records (%v), want %d of each writer", len(recs), next, games)
	}
	f, err := os.Open(pgn)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	parsed, err := ParsePGN(f)
	if err != nil {
		t.Fatal(err)
	}
	var pgnWhites []string
	for _, g := range parsed {
		pgnWhites = append(pgnWhites, g.Tags["White"])
	}
	if !slices.Equal(pgnWhites, whites) {
		t.Errorf("the PGN's games, by White:\n%v\nthe records':\n%v", pgnWhites, whites)
	}
}

// openWhenFree opens a sink, waiting while another writer holds the files.
func openWhenFree(records string, opts SinkOptions) (*Sink, error) {
	var le *LockedError
	for deadline := time.Now().Add(time.Minute); ; {
		sink, err := OpenSink(records, opts, func(*Record) error { return nil })
		if !errors.As(err, &le) || time.Now().After(deadline) {
			return sink, err
		}
		time.Sleep(time.Millisecond)
	}
}

// TestSinkRefusedLeavesFilesAlone: while a sink writes its files, a second sink on the same
// records, or on other records and the same PGN (even one that would rebuild it), is refused
// with a *LockedError and changes neither file.
func TestSinkRefusedLeavesFilesAlone(t *testing.T) {
	if !lockedPlatform() {
		t.Skipf("records files are not locked on %s", runtime.GOOS)
	}
	dir := testenv.TempDir(t)
	records, pgn := filepath.Join(dir, "games.jsonl"), filepath.Join(dir, "games.pgn")
	first, err := OpenSink(records, SinkOptions{PGN: pgn}, func(*Record) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	r := sampleRecord(0)
	if err := first.Append(&r); err != nil {
		t.Fatal(err)
	}
	recordsBefore, pgnBefore := readAll(t, records), readAll(t, pgn)
	var le *LockedError
	for _, tc := range []struct {
		name    string
		records string
	}{
		{"the same records", records},
		{"other records, the same PGN", filepath.Join(dir, "other.jsonl")},
	} {
		second, err := OpenSink(tc.records, SinkOptions{PGN: pgn, RebuildPGN: true}, func(*Record) error { return nil })
		if !errors.As(err, &le) {
			if second != nil {
				second.Close()
			}
			t.Errorf("%s: %v, want a *LockedError", tc.name, err)
		}
		if readAll(t, records) != recordsBefore || readAll(t, pgn) != pgnBefore {
			t.Errorf("%s: the refused sink changed the files", tc.name)
		}
	}
	// The refused sink let go of the other records file: it opens now.
	other, err := OpenSink(filepath.Join(dir, "other.jsonl"), SinkOptions{}, func(*Record) error { return nil })
	if err != nil {
		t.Fatalf("the other records after the refusal: %v", err)
	}
	other.Close()
}

// TestSinkPGNGone: a PGN file removed under a sink is a *PGNWriteError (the record is on disk),
// and what the sink had written to it is saved back to its path.
func TestSinkPGNGone(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("an open file cannot be removed on Windows")
	}
	dir := testenv.TempDir(t)
	records, pgn := filepath.Join(dir, "games.jsonl"), filepath.Join(dir, "games.pgn")
	sink, err := OpenSink(records, SinkOptions{PGN: pgn}, func(*Record) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	r := sampleRecord(0)
	if err := sink.Append(&r); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(pgn); err != nil {
		t.Fatal(err)
	}
	r = sampleRecord(1)
	err = sink.Append(&r)
	var pe *PGNWriteError
	if !errors.As(err, &pe) || !errors.Is(err, ErrFileGone) {
		t.Fatalf("after the PGN was removed: %v, want a *PGNWriteError of ErrFileGone", err)
	}
	if recs, err := ReadFile(records); err != nil || len(recs) != 2 {
		t.Errorf("records: %d, %v; want both games", len(recs), err)
	}
	f, err := os.Open(pgn)
	if err != nil {
		t.Fatalf("the PGN was not saved back: %v", err)
	}
	defer f.Close()
	if games, err := ParsePGN(f); err != nil || len(games) != 2 {
		t.Errorf("the saved PGN: %d games, %v; want 2", len(games), err)
	}
}

// TestSinkRebuildsOrAppendsPGN: a sink that rebuilds its PGN writes the records' games and
// drops what else the file held (a game written after its record was lost); one that appends
// keeps it.
func TestSinkRebuildsOrAppendsPGN(t *testing.T) {
	dir := testenv.TempDir(t)
	records := filepath.Join(dir, "games.jsonl")
	log, _, err := OpenLog(records)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		r := sampleRecord(i)
		if err := log.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	log.Close()
	const stray = "[Event \"stray\"]\n[White \"x\"]\n[Black \"y\"]\n[Result \"*\"]\n\n*\n\n"
	for _, tc := range []struct {
		rebuild bool
		want    int // games in the PGN after one more is appended
	}{
		{true, 3},
		{false, 2},
	} {
		pgn := filepath.Join(dir, fmt.Sprintf("rebuild-%v.pgn", tc.rebuild))
		if err := os.WriteFile(pgn, []byte(stray), 0o644); err != nil {
			t.Fatal(err)
		}
		sink, err := OpenSink(records, SinkOptions{PGN: pgn, RebuildPGN: tc.rebuild}, func(*Record) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		r := sampleRecord(2)
		if err := sink.Append(&r); err != nil {
			t.Fatal(err)
		}
		if err := sink.Close(); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(pgn)
		if err != nil {
			t.Fatal(err)
		}
		games, err := ParsePGN(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		keptStray := len(games) > 0 && games[0].Tags["Event"] == "stray"
		if len(games) != tc.want || keptStray == tc.rebuild {
			t.Errorf("rebuild %v: %d games, want %d; the stray game kept: %v", tc.rebuild, len(games), tc.want, keptStray)
		}
	}
}

func readAll(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
