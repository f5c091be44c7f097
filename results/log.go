package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
)

// maxRecordBytes bounds one line of a records file; a longer line is reported, not buffered.
const maxRecordBytes = 64 << 20

// LineError reports a records file line that cannot be read as a Record.
type LineError struct {
	Path string
	Line int
	Err  error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("results: %s:%d: %v", e.Path, e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// Log is a JSON Lines file of records open for appending. Each Append is written whole and
// synced to disk before it returns, so a record that was reported is never lost.
type Log struct {
	path string
	f    *os.File
}

// OpenLog opens (creating it if needed) the records file at path for appending and returns the
// records it already holds. A last line cut short by a killed process is dropped and the file
// truncated to the last complete record; any other unreadable line is an error, and the file is
// left untouched.
func OpenLog(path string) (*Log, []Record, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("results: %w", err)
	}
	recs, good, err := readRecords(path, f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("results: repairing %s: %w", path, err)
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("results: %w", err)
	}
	return &Log{path: path, f: f}, recs, nil
}

// Path is the file the log writes to.
func (l *Log) Path() string { return l.path }

// Append writes one record as a line and syncs the file.
func (l *Log) Append(r *Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("results: encoding game %d: %w", r.Game, err)
	}
	b = append(b, '\n')
	if _, err := l.f.Write(b); err != nil {
		return fmt.Errorf("results: writing %s: %w", l.path, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("results: syncing %s: %w", l.path, err)
	}
	return nil
}

// Close closes the file.
func (l *Log) Close() error {
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("results: %w", err)
	}
	return nil
}

// readRecords reads every complete record from r. It returns the records and the offset just
// after the last complete line; an incomplete final line (no newline) is not an error.
func readRecords(path string, r io.Reader) ([]Record, int64, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		recs   []Record
		offset int64
		line   int
	)
	for {
		b, err := readLine(br)
		if errors.Is(err, io.EOF) {
			// b holds an unterminated tail, if any: a write cut short. Drop it.
			return recs, offset, nil
		}
		line++
		if err != nil {
			return nil, 0, &LineError{path, line, err}
		}
		offset += int64(len(b))
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		var rec Record
		if err := json.Unmarshal(b, &rec); err != nil {
			return nil, 0, &LineError{path, line, err}
		}
		if rec.Schema != SchemaVersion {
			return nil, 0, &LineError{path, line, fmt.Errorf("record schema %d, this arbiter reads %d", rec.Schema, SchemaVersion)}
		}
		recs = append(recs, rec)
	}
}

// readLine returns the next line including its newline; at the end it returns what is left
// (a line without newline) together with io.EOF.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(buf)+len(frag) > maxRecordBytes {
			return nil, fmt.Errorf("line longer than %d bytes", maxRecordBytes)
		}
		buf = append(buf, frag...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return buf, err
	}
}

// ReadFile returns the complete records of a records file.
func ReadFile(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	defer f.Close()
	recs, _, err := readRecords(path, f)
	return recs, err
}

// ReadFiles reads and merges several records files (shards of one run, or the files of a run
// resumed elsewhere). A game that appears in more than one file is kept once; two different
// records for the same game are an error. The result is ordered by run, then game index.
func ReadFiles(paths ...string) ([]Record, error) {
	seen := make(map[Key]int)
	var all []Record
	for _, p := range paths {
		recs, err := ReadFile(p)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			if i, ok := seen[r.Key()]; ok {
				if !sameGame(&all[i], &r) {
					return nil, fmt.Errorf("results: %s: game %d of run %s is recorded twice with different outcomes", p, r.Game, r.Run)
				}
				continue
			}
			seen[r.Key()] = len(all)
			all = append(all, r)
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].Run != all[j].Run {
			return all[i].Run < all[j].Run
		}
		return all[i].Game < all[j].Game
	})
	return all, nil
}

func sameGame(a, b *Record) bool {
	return a.Result == b.Result && a.Reason == b.Reason && a.GameString == b.GameString &&
		a.White.Name == b.White.Name && a.Black.Name == b.Black.Name
}
