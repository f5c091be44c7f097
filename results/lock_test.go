package results

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"hivearbiter/internal/testkit/testenv"
)

// lockChildEnv names the folder whose files the test binary tries to write when it runs as
// the second process of TestLockAcrossProcesses (see TestMain).
const lockChildEnv = "RESULTS_LOCK_CHILD"

// TestLockAcrossProcesses: while one process writes a records file and a PGN file, another
// process (this test binary again) is refused both, yet reads the records, and sees that a
// run is writing them; once the first closes its files the second may write them. flock on
// Unix, LockFileEx on Windows.
func TestLockAcrossProcesses(t *testing.T) {
	dir := testenv.TempDir(t)
	log, _, err := OpenLog(filepath.Join(dir, "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	r := sampleRecord(0)
	if err := log.Append(&r); err != nil {
		t.Fatal(err)
	}
	log.f.WriteString(`{"schema":1,"ga`) // as if caught in the middle of a write
	pgn, err := CreateLocked(filepath.Join(dir, "games.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	defer pgn.Close()

	want := "records: locked\npgn: locked\nread: 1 record, live\n"
	if got := runLockChild(t, dir); got != want {
		t.Errorf("while the first process writes, the second says:\n%s\nwant:\n%s", got, want)
	}
	log.Close()
	pgn.Close()
	want = "records: opened\npgn: opened\nread: 1 record\n"
	if got := runLockChild(t, dir); got != want {
		t.Errorf("after the first process closed its files, the second says:\n%s\nwant:\n%s", got, want)
	}
}

// runLockChild runs the test binary as the second process on dir's files and returns what it
// printed.
func runLockChild(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0])
	cmd.Env = append(os.Environ(), lockChildEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the second process: %v\n%s", err, out)
	}
	return string(out)
}

// TestMain runs the test binary as the second process of TestLockAcrossProcesses when
// lockChildEnv is set, and the tests otherwise.
func TestMain(m *testing.M) {
	if dir := os.Getenv(lockChildEnv); dir != "" {
		lockChild(dir)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// lockChild is the second process of TestLockAcrossProcesses. It tries to open the records and
// the PGN file in dir for writing, then reads the records, and prints what happened.
func lockChild(dir string) {
	var le *LockedError
	outcome := func(err error) string {
		switch {
		case err == nil:
			return "opened"
		case errors.As(err, &le):
			return "locked"
		}
		return err.Error()
	}
	log, _, err := OpenLog(filepath.Join(dir, "games.jsonl"))
	if err == nil {
		log.Close()
	}
	fmt.Printf("records: %s\n", outcome(err))
	pgn, err := CreateLocked(filepath.Join(dir, "games.pgn"))
	if err == nil {
		pgn.Close()
	}
	fmt.Printf("pgn: %s\n", outcome(err))
	recs, d, err := ReadFileWith(filepath.Join(dir, "games.jsonl"), ReadOptions{})
	switch {
	case err != nil:
		fmt.Printf("read: %v\n", err)
	case d.Live:
		fmt.Printf("read: %d record, live\n", len(recs))
	default:
		fmt.Printf("read: %d record\n", len(recs))
	}
}
