package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
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

// Error returns what went wrong, as a user reads it.
func (e *LineError) Error() string { return "results: " + e.Message() }

// Message is the error without the package's name.
func (e *LineError) Message() string { return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err) }

// Unwrap returns the error underneath, for errors.Is and errors.As.
func (e *LineError) Unwrap() error { return e.Err }

// LockedError reports a records file that another run is writing: two writers would
// interleave their records and corrupt the file for both.
type LockedError struct{ Path string }

// Error returns what went wrong, as a user reads it.
func (e *LockedError) Error() string { return "results: " + e.Message() }

// Message is the error without the package's name.
func (e *LockedError) Message() string {
	return fmt.Sprintf("%s is being written by another run of the arbiter: wait for it to end, or give this run a file of its own", e.Path)
}

// FileError is a records or PGN file that cannot be opened, read or written.
type FileError struct {
	Msg string // what failed, without the package's name
	Err error
}

// Error returns what went wrong, as a user reads it.
func (e *FileError) Error() string { return "results: " + e.Msg }

// Message is the error without the package's name.
func (e *FileError) Message() string { return e.Msg }

// Unwrap returns the error underneath, for errors.Is and errors.As.
func (e *FileError) Unwrap() error { return e.Err }

// fileError is a FileError whose message is format's, which wraps err with %w.
func fileError(err error, format string, args ...any) error {
	return &FileError{Msg: fmt.Errorf(format, args...).Error(), Err: err}
}

var errLocked = errors.New("locked")

// Log is a JSON Lines file open for appending, locked against a second writer: a run's game
// records (OpenLog, Append), or another run's lines (a tune's: OpenLines, AppendJSON). Each line
// is written whole and synced to disk before Append returns, so a record that was reported is
// never lost.
type Log struct {
	path   string
	f      *os.File
	w      io.Writer // f, unless a test injects a fault
	size   int64     // the end of the last record written whole
	err    error     // the write that failed: the log takes no more records
	damage Damage
}

// ReadOptions say how to read a records file that is damaged, and how much of each record.
type ReadOptions struct {
	// SkipBad passes over lines that are not records (reported in Damage) instead of
	// refusing the file.
	SkipBad bool
	// Counts reads of each record only what counting it in a Tally needs: its Moves,
	// GameString and Settings are left empty. Decoding the moves is most of a record's cost,
	// and a run that resumes counts its records and forgets them.
	Counts bool
}

// Damage is what reading a records file found wrong, and passed over or repaired.
type Damage struct {
	Path string
	// Skipped lists the lines that are not records, passed over with ReadOptions.SkipBad.
	Skipped []LineError
	// CutTail is the length in bytes of a last line without its newline: a write cut short by
	// a killed process, or under way. Readers ignore it; OpenLog removes it from the file.
	CutTail int64
	// Live reports that a run was writing the file while it was read: a cut tail is a game
	// being written, not damage.
	Live bool
}

// Any reports whether anything was found wrong.
func (d Damage) Any() bool { return len(d.Skipped) > 0 || d.CutTail > 0 }

// Lines says what was found, one sentence a line, for a person; removed says whether the cut
// tail was removed from the file (by OpenLog) or only ignored.
func (d Damage) Lines(removed bool) []string {
	var lines []string
	if n := len(d.Skipped); n > 0 {
		first := d.Skipped[0]
		lines = append(lines, fmt.Sprintf("%s: skipped %d line(s) that are not game records (the first, line %d: %v); the file is left as it is",
			d.Path, n, first.Line, first.Err))
	}
	if d.CutTail > 0 {
		verb := "ignored"
		if removed {
			verb = "removed it from the file"
		}
		if d.Live {
			lines = append(lines, fmt.Sprintf("%s: a run is writing this file; the game it was writing as it was read is not counted", d.Path))
		} else {
			lines = append(lines, fmt.Sprintf("%s: the last line (%d bytes) was cut short, by a run killed while it wrote a game; %s, and that game is not counted", d.Path, d.CutTail, verb))
		}
	}
	return lines
}

// OpenLog opens (creating it if needed) the records file at path for appending and returns the
// records it already holds. It locks the file against other writers: while one Log is open,
// opening another on the same file fails with a *LockedError. A last line cut short by a killed process is dropped and the file
// truncated to the last complete record; any other unreadable line is an error, and the file is
// left untouched.
func OpenLog(path string) (*Log, []Record, error) {
	return OpenLogWith(path, ReadOptions{})
}

// OpenLogWith is OpenLog with options for a damaged file. What it found wrong, and repaired, is
// in the Log's Damage: a caller must tell the user.
func OpenLogWith(path string, opts ReadOptions) (*Log, []Record, error) {
	var recs []Record
	log, err := OpenLogFunc(path, opts, appendTo(&recs))
	if err != nil {
		return nil, nil, err
	}
	return log, recs, nil
}

// appendTo is a function for OpenLogFunc and ReadFileFunc that keeps every record in recs.
func appendTo(recs *[]Record) func(*Record) error {
	return func(r *Record) error {
		*recs = append(*recs, *r)
		return nil
	}
}

// OpenLogFunc is OpenLogWith that hands each record to each as it is read, instead of
// returning them all: a run of any length then resumes in the memory of one record. The
// record is each's for the call only. An error from each stops the reading, leaves the file
// untouched and is returned as it is.
func OpenLogFunc(path string, opts ReadOptions, each func(*Record) error) (*Log, error) {
	return openLog(path, func(f *os.File) (Damage, int64, error) {
		return readRecords(path, f, opts, each)
	})
}

// OpenLines opens a JSON Lines file of other lines than game records (a tune's) as OpenLogFunc
// opens a records file: created if needed, locked against other writers (a *LockedError), and
// a last line cut short by a killed process removed from the file (the Log's Damage says how
// long it was). It hands each complete line to each, without its newline, with its number
// (from 1); the bytes are each's for the call only. An error from each stops the reading,
// leaves the file untouched and is returned as it is. Append lines with AppendJSON.
func OpenLines(path string, each func(line int, b []byte) error) (*Log, error) {
	return openLog(path, func(f *os.File) (Damage, int64, error) {
		return readLines(path, f, each)
	})
}

// openLog opens and locks the file at path, reads it with read (which returns what it found
// wrong and the end of its last complete line), and cuts off what follows that end.
func openLog(path string, read func(*os.File) (Damage, int64, error)) (*Log, error) {
	// One writer at a time: the lock is held until Close (or the process ends).
	f, err := openLocked(path)
	if err != nil {
		return nil, err
	}
	damage, good, err := read(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, fileError(err, "repairing %s: %w", path, err)
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, fileError(err, "%w", err)
	}
	return &Log{path: path, f: f, w: f, size: good, damage: damage}, nil
}

// openLocked opens (creating it if needed) the file at path for reading and writing, and takes
// its lock: a *LockedError if another open file holds it.
func openLocked(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fileError(err, "%w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, &LockedError{Path: path}
		}
		return nil, fileError(err, "locking %s: %w", path, err)
	}
	return f, nil
}

// Damage is what OpenLogWith found wrong with the file: the lines it skipped and the cut-short
// last line it removed.
func (l *Log) Damage() Damage { return l.damage }

// Path is the file the log writes to.
func (l *Log) Path() string { return l.path }

// Append writes one record as a line and syncs the file. A write that fails (a full disk, a
// file system gone read-only, a file removed under the run) is an error that ends the log:
// the line written in part is cut off again, when the file still allows it, and every later
// Append returns the same error, so that no record is ever written after a broken line.
func (l *Log) Append(r *Record) error {
	if l.err != nil {
		return l.err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fileError(err, "encoding game %d: %w", r.Game, err)
	}
	return l.appendLine(b, fmt.Sprintf("game %d", r.Game+1))
}

// AppendJSON writes v, encoded as JSON, as one line and syncs the file, as Append writes a
// record: a write that fails ends the log.
func (l *Log) AppendJSON(v any) error {
	if l.err != nil {
		return l.err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fileError(err, "encoding a line of %s: %w", l.path, err)
	}
	return l.appendLine(b, "a line")
}

// appendLine writes b and a newline, syncs the file, and checks that it is still the file at
// the log's path; what says what b is, for an error.
func (l *Log) appendLine(b []byte, what string) error {
	b = append(b, '\n')
	if _, err := l.w.Write(b); err != nil {
		return l.fail(fileError(err, "writing %s to %s: %v%s", what, l.path, withoutPath(err), l.cutBack()))
	}
	if err := l.f.Sync(); err != nil {
		return l.fail(fileError(err, "syncing %s: %v%s", l.path, withoutPath(err), l.cutBack()))
	}
	l.size += int64(len(b))
	if err := CheckSameFile(l.f, l.path); err != nil {
		return l.fail(err)
	}
	return nil
}

// withoutPath is the system's error without the operation and path a *fs.PathError adds,
// for a message that names the file already.
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// fail ends the log with err.
func (l *Log) fail(err error) error {
	l.err = err
	return err
}

// cutBack removes what a failed write left of its line, and says what became of it.
func (l *Log) cutBack() string {
	if err := l.f.Truncate(l.size); err != nil {
		return fmt.Sprintf(" (the part of the line that was written stays; the next run removes it: %v)", err)
	}
	if _, err := l.f.Seek(l.size, io.SeekStart); err != nil {
		return fmt.Sprintf(" (%v)", err)
	}
	return ""
}

// Close closes the file.
func (l *Log) Close() error {
	if err := l.f.Close(); err != nil {
		return fileError(err, "%w", err)
	}
	return nil
}

// readRecords reads every complete record from r and hands it to each. It returns what it
// found wrong and the offset just after the last complete line; an incomplete final line (no
// newline) is not an error. A line that is not a record is an error, or with opts.SkipBad is
// skipped.
func readRecords(path string, r io.Reader, opts ReadOptions, each func(*Record) error) (Damage, int64, error) {
	damage := Damage{Path: path}
	bad := func(line int, err error) error {
		le := LineError{path, line, err}
		if !opts.SkipBad {
			return &le
		}
		damage.Skipped = append(damage.Skipped, le)
		return nil
	}
	offset, tail, err := scanLines(r, func(line int, b []byte) error {
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			return nil
		}
		var rec Record
		if err := decodeRecord(b, &rec, opts.Counts); err != nil {
			return bad(line, fmt.Errorf("not a game record (%v)", err))
		}
		if rec.Schema != SchemaVersion {
			return bad(line, fmt.Errorf("record schema %d, this arbiter reads %d", rec.Schema, SchemaVersion))
		}
		return each(&rec)
	})
	var long *longLineError
	if errors.As(err, &long) {
		if err := bad(long.line, long.err); err != nil {
			return damage, 0, err
		}
		// The rest of an over-long line was not read: the reading cannot go on.
		return damage, offset, nil
	}
	if err != nil {
		return damage, 0, err
	}
	// A last line without its newline is a write cut short: it is not handed on.
	damage.CutTail = tail
	return damage, offset, nil
}

// readLines hands each complete line of r to each, as OpenLines says. It returns what it found
// wrong (a cut-short last line) and the offset just after the last complete line.
func readLines(path string, r io.Reader, each func(line int, b []byte) error) (Damage, int64, error) {
	offset, tail, err := scanLines(r, each)
	var long *longLineError
	if errors.As(err, &long) {
		return Damage{}, 0, &LineError{path, long.line, long.err}
	}
	if err != nil {
		return Damage{}, 0, err
	}
	return Damage{Path: path, CutTail: tail}, offset, nil
}

// scanLines reads r a line at a time and hands each complete line, without its newline, to
// each with its number (from 1). It returns the offset just after the last line it handed on
// and the length of a last line without its newline, which it hands to no one. An error from
// each stops it and is returned as it is; so does a line longer than maxRecordBytes, as a
// *longLineError, with the offset before that line.
func scanLines(r io.Reader, each func(line int, b []byte) error) (offset, tail int64, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for line := 1; ; line++ {
		b, err := readLine(br)
		if errors.Is(err, io.EOF) {
			return offset, int64(len(b)), nil
		}
		if err != nil {
			return offset, 0, &longLineError{line, err}
		}
		offset += int64(len(b))
		if err := each(line, b[:len(b)-1]); err != nil {
			return offset, 0, err
		}
	}
}

// longLineError is a line longer than maxRecordBytes, which scanLines does not read.
type longLineError struct {
	line int
	err  error
}

func (e *longLineError) Error() string { return fmt.Sprintf("line %d: %v", e.line, e.err) }

// decodeRecord decodes a record's line, all of it or (counts) only what a tally counts.
func decodeRecord(b []byte, rec *Record, counts bool) error {
	if !counts {
		return json.Unmarshal(b, rec)
	}
	// The fields of the view shadow the record's of the same JSON names: their values are
	// scanned past, not decoded.
	view := struct {
		*Record
		Moves      skippedArray  `json:"moves"`
		GameString skippedString `json:"game_string"`
		Settings   skippedObject `json:"settings"`
	}{Record: rec}
	return json.Unmarshal(b, &view)
}

// skippedArray, skippedString and skippedObject are JSON values that are not decoded, only
// checked to be of the kind the record's field takes (or null), so that a record a tally
// counts is one whose full decoding does not refuse the field itself.
type (
	skippedArray  struct{}
	skippedString struct{}
	skippedObject struct{}
)

func (*skippedArray) UnmarshalJSON(b []byte) error  { return skippedKind(b, '[', "an array") }
func (*skippedString) UnmarshalJSON(b []byte) error { return skippedKind(b, '"', "a string") }
func (*skippedObject) UnmarshalJSON(b []byte) error { return skippedKind(b, '{', "an object") }

// skippedKind refuses a JSON value (as json.Unmarshal hands it to an Unmarshaler: valid, not
// empty) that does not start with first, unless it is null.
func skippedKind(b []byte, first byte, kind string) error {
	if b[0] == first || string(b) == "null" {
		return nil
	}
	return fmt.Errorf("results: want %s or null, not %.20s", kind, b)
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
	recs, _, err := ReadFileWith(path, ReadOptions{})
	return recs, err
}

// ReadFileWith returns the complete records of a records file and what it found wrong.
func ReadFileWith(path string, opts ReadOptions) ([]Record, Damage, error) {
	var recs []Record
	damage, err := ReadFileFunc(path, opts, appendTo(&recs))
	if err != nil {
		return nil, damage, err
	}
	return recs, damage, nil
}

// ReadFileFunc reads a records file as ReadFileWith does, handing each record to each as it
// is read instead of returning them all (the record is each's for the call only). An error
// from each stops the reading and is returned as it is.
func ReadFileFunc(path string, opts ReadOptions, each func(*Record) error) (Damage, error) {
	return readFile(path, func(f *os.File) (Damage, int64, error) {
		return readRecords(path, f, opts, each)
	})
}

// ReadFileFrom reads a records file as ReadFileFunc does, from offset on (0, or what an
// earlier call returned), and returns the offset just after the last complete line: a file
// that a run appends to is read again from there, its earlier records not read twice. Lines
// are numbered from offset.
func ReadFileFrom(path string, offset int64, opts ReadOptions, each func(*Record) error) (int64, Damage, error) {
	next := offset
	damage, err := readFile(path, func(f *os.File) (Damage, int64, error) {
		if _, err := f.Seek(offset, io.SeekStart); err != nil {
			return Damage{}, 0, fileError(err, "%w", err)
		}
		d, n, err := readRecords(path, f, opts, each)
		next = offset + n
		return d, n, err
	})
	return next, damage, err
}

// ReadLines reads a file of other JSON Lines than game records (a tune's) as ReadFileFunc
// reads a records file, without a lock: it hands each complete line to each as OpenLines does,
// and a last line cut short (Damage.CutTail) to no one.
func ReadLines(path string, each func(line int, b []byte) error) (Damage, error) {
	return readFile(path, func(f *os.File) (Damage, int64, error) {
		return readLines(path, f, each)
	})
}

// readFile opens the file at path and reads it with read; a cut tail is live when a run is
// writing the file.
func readFile(path string, read func(*os.File) (Damage, int64, error)) (Damage, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Damage{}, missingFile{path}
		}
		return Damage{}, fileError(err, "%w", err)
	}
	defer f.Close()
	damage, _, err := read(f)
	if err != nil {
		return damage, err
	}
	damage.Live = damage.CutTail > 0 && lockedByWriter(f)
	return damage, nil
}

// ReadFiles reads and merges several records files (shards of one run, or the files of a run
// resumed elsewhere). A game that appears in more than one file is kept once; two different
// records for the same game are an error. The result is ordered by run, then game index.
func ReadFiles(paths ...string) ([]Record, error) {
	recs, _, err := ReadFilesWith(ReadOptions{}, paths...)
	return recs, err
}

// ReadFilesWith is ReadFiles with options for damaged files; it returns what it found wrong
// with each file that had damage.
func ReadFilesWith(opts ReadOptions, paths ...string) ([]Record, []Damage, error) {
	seen := make(map[Key]int)
	var all []Record
	var damages []Damage
	for _, p := range paths {
		recs, damage, err := ReadFileWith(p, opts)
		if err != nil {
			return nil, nil, err
		}
		if damage.Any() {
			damages = append(damages, damage)
		}
		for _, r := range recs {
			if i, ok := seen[r.Key()]; ok {
				if !sameGame(&all[i], &r) {
					return nil, nil, &FileError{Msg: fmt.Sprintf("%s: game %d of run %s is recorded twice with different outcomes", p, r.Game+1, r.Run)}
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
	return all, damages, nil
}

func sameGame(a, b *Record) bool {
	return a.Result == b.Result && a.Reason == b.Reason && a.GameString == b.GameString &&
		a.White.Name == b.White.Name && a.Black.Name == b.Black.Name
}

// CreateLocked creates or truncates the file at path, as os.Create does, after taking the same
// lock as OpenLog: a second run writing the same file (a PGN, say) gets a *LockedError, and
// the first run's file is not truncated under it.
func CreateLocked(path string) (*os.File, error) {
	f, err := openLocked(path)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, fileError(err, "%w", err)
	}
	return f, nil
}

// missingFile is a records file that does not exist; it matches os.ErrNotExist.
type missingFile struct{ path string }

func (e missingFile) Error() string { return "results: " + e.Message() }

// Message is the error without the package's name.
func (e missingFile) Message() string { return e.path + ": no such file" }
func (e missingFile) Unwrap() error   { return os.ErrNotExist }
