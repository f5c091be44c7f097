package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"hivearbiter/ci"
	"hivearbiter/internal/syncbuf"
	"hivearbiter/results"
)

// diskFaultMatch is a match of 12 games between two fake engines that take 5 ms a move, so
// that a run lasts long enough to be hurt while it writes.
func diskFaultMatch(out, pgn string) []string {
	slow := fakeConfig("random")
	slow.Delay = 5 * time.Millisecond
	args := []string{"match", "-out", out, "-pgnout", pgn, "-rounds", "6", "-maxplies", "30", "-concurrency", "2"}
	args = append(args, fakeEngineSpec("a", slow)...)
	args = append(args, fakeEngineSpec("b", slow)...)
	return append(args, "-each", "st=1", "fractional=true", "-openings", "plies=2")
}

// resumeAfterFault runs the same command again, with the fault gone: it must finish, with
// every game of the schedule recorded once and the PGN holding them all.
func resumeAfterFault(t *testing.T, args []string, out, pgn string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("the same command, after the fault: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "already played") {
		t.Errorf("the second run did not resume:\n%s", stdout.String())
	}
	exactlyScheduled(t, out, 12)
	data, err := os.ReadFile(pgn)
	if n := bytes.Count(data, []byte("[Result ")); err != nil || n != 12 {
		t.Errorf("the PGN holds %d games (%v), want 12", n, err)
	}
}

// A file size limit makes the records file's writes fail for real, half-way through a line,
// as a full disk does (EFBIG here, ENOSPC there: the same short write with an error; a full
// disk cannot be had in CI, and /dev/full cannot stand in for a records file, which is read
// and truncated before it is written). The run stops with exit code 1 and an error naming the
// file; no record is lost or damaged, and the same command, once the fault is gone, resumes.
func TestMatchRecordsWriteFails(t *testing.T) {
	dir := t.TempDir()
	out, pgn := filepath.Join(dir, "games.jsonl"), filepath.Join(dir, "games.pgn")
	args := diskFaultMatch(out, pgn)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ARBITER_TEST_MAIN=1")
	var stdout, stderr syncbuf.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Room for a few records of about 1.5 kB: the limit is set before the arbiter has
	// started its engines, so long before its first record.
	limit := unix.Rlimit{Cur: 5000, Max: 5000}
	if err := unix.Prlimit(cmd.Process.Pid, unix.RLIMIT_FSIZE, &limit, nil); err != nil {
		cmd.Process.Kill()
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != ci.ExitFailure {
		t.Fatalf("exit: %v, want status %d\n%s%s", err, ci.ExitFailure, stdout.String(), stderr.String())
	}
	if msg := stderr.String(); !strings.Contains(msg, "file too large") || !strings.Contains(msg, out) {
		t.Errorf("the error does not say what failed where:\n%s", msg)
	}
	log, recs, err := results.OpenLog(out)
	if err != nil {
		t.Fatalf("the records after the fault: %v", err)
	}
	log.Close()
	if len(recs) == 0 || len(recs) >= 12 || log.Damage().Any() {
		t.Fatalf("%d records and damage %v after the fault, want some of the 12 games and no damage", len(recs), log.Damage().Lines(false))
	}
	resumeAfterFault(t, args, out, pgn)
}

// A records file removed under the run is noticed at the next game: the run stops with exit
// code 1, what it had written is put back under the file's name, and the same command resumes.
// Before, the run went on writing into a file no name reached, and lost every game.
func TestMatchRecordsFileRemoved(t *testing.T) {
	dir := t.TempDir()
	out, pgn := filepath.Join(dir, "games.jsonl"), filepath.Join(dir, "games.pgn")
	args := diskFaultMatch(out, pgn)
	var stdout, stderr syncbuf.Buffer
	done := make(chan error, 1)
	go func() { done <- run(context.Background(), args, &stdout, &stderr) }()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stdout.String(), "Finished game") && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}
	err := <-done
	if code := exitCode(err, &stderr); code != ci.ExitFailure {
		t.Fatalf("exit code %d, want %d\n%s%s", code, ci.ExitFailure, stdout.String(), stderr.String())
	}
	if msg := stderr.String(); !strings.Contains(msg, out+" was removed while the run wrote it") {
		t.Errorf("the error does not say the file was removed:\n%s", msg)
	}
	recs, err := results.ReadFile(out)
	if err != nil || len(recs) == 0 {
		t.Fatalf("%d records put back (%v), want those played", len(recs), err)
	}
	resumeAfterFault(t, args, out, pgn)
}
