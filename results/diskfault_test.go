package results

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullDisk writes the first n bytes it is given, then fails as a full disk does: a short
// write with ENOSPC.
type fullDisk struct {
	w io.Writer
	n int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) <= d.n {
		d.n -= len(p)
		return d.w.Write(p)
	}
	n, _ := d.w.Write(p[:d.n])
	d.n = 0
	return n, &os.PathError{Op: "write", Path: "games.jsonl", Err: syscall.ENOSPC}
}

// A write that fails half-way (a full disk) is an error that names the file; the half line is
// cut off again, no record is written after it, and the file reopens with every record
// written before the fault. Before, the half line stayed, and the next record appended after
// it made a line that is no record: the run could not resume without -skip-bad, and that
// game was lost.
func TestLogWriteFaultLosesNothing(t *testing.T) {
	for _, room := range []int{0, 40} { // nothing of the line fits, or part of it
		path := filepath.Join(t.TempDir(), "games.jsonl")
		log, _, err := OpenLog(path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			r := sampleRecord(i)
			if err := log.Append(&r); err != nil {
				t.Fatal(err)
			}
		}
		log.w = &fullDisk{w: log.f, n: room}
		r := sampleRecord(2)
		err = log.Append(&r)
		var fe *FileError
		if !errors.As(err, &fe) || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), path) {
			t.Fatalf("room %d: err = %v, want a FileError for ENOSPC naming %s", room, err, path)
		}
		log.w = log.f // the disk has room again, but the log takes nothing more
		r = sampleRecord(3)
		if err2 := log.Append(&r); !errors.Is(err2, syscall.ENOSPC) {
			t.Errorf("room %d: an append after the fault: %v, want the fault again", room, err2)
		}
		log.Close()
		log, recs, err := OpenLog(path)
		if err != nil {
			t.Fatalf("room %d: reopening after the fault: %v", room, err)
		}
		if len(recs) != 2 || log.Damage().Any() {
			t.Errorf("room %d: reopened with %d records and damage %v, want the 2 written before the fault and no damage", room, len(recs), log.Damage().Lines(true))
		}
		log.Close()
	}
}

// A records file removed under the run is noticed at the next record: on Linux, writes to it
// succeed and vanish with the run. What the run had written is put back under the file's name
// and the error says so.
func TestLogFileRemovedUnderTheRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	log, _, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	r := sampleRecord(0)
	if err := log.Append(&r); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	r = sampleRecord(1)
	err = log.Append(&r)
	if !errors.Is(err, ErrFileGone) || !strings.Contains(err.Error(), "was removed while the run wrote it") {
		t.Fatalf("err = %v, want ErrFileGone", err)
	}
	recs, err := ReadFile(path)
	if err != nil || len(recs) != 2 {
		t.Errorf("after the removal the file holds %d records (%v), want both", len(recs), err)
	}
}

// A records file replaced by another under the run is left alone; the run's records go to
// FILE.saved.
func TestLogFileReplacedUnderTheRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	log, _, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("someone else's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := sampleRecord(0)
	if err := log.Append(&r); !errors.Is(err, ErrFileGone) || !strings.Contains(err.Error(), path+".saved") {
		t.Fatalf("err = %v, want ErrFileGone saying the records went to %s.saved", err, path)
	}
	if data, _ := os.ReadFile(path); string(data) != "someone else's\n" {
		t.Errorf("the other file was changed: %q", data)
	}
	if recs, err := ReadFile(path + ".saved"); err != nil || len(recs) != 1 {
		t.Errorf("%s.saved holds %d records (%v), want 1", path, len(recs), err)
	}
}
