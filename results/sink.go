package results

import (
	"fmt"
	"io"
	"os"
)

// A Sink is where a run writes its finished games, the one writer of records and PGN that
// every run uses (a tournament, arbiter serve): each game's record is appended to the records
// file and synced (a Log), then, when the run keeps one, its PGN is appended to the PGN file.
// Both files are locked against a second writer as a Log is, so that two runs never interleave
// their games in one file: the second to open either gets a *LockedError, and neither file is
// touched by it.
type Sink struct {
	log  *Log
	pgn  *os.File // nil without a PGN file
	opts SinkOptions
}

// SinkOptions say how a Sink opens its files.
type SinkOptions struct {
	Read ReadOptions // how the records file is read as it is opened
	// PGN is the path of the PGN file, "" for none.
	PGN string
	// Event is the PGN's Event tag.
	Event string
	// RebuildPGN rewrites the PGN file from the records file as the sink opens, so that it
	// holds the records' games, and only them, even after a run killed between the two writes
	// of a game. Without it games are appended to what the PGN file holds.
	RebuildPGN bool
}

// PGNWriteError is a game whose PGN could not be written after its record was: the record is on
// disk, and a run that rebuilds its PGN (SinkOptions.RebuildPGN) writes the game there again.
type PGNWriteError struct {
	Err error // a *FileError
}

// Error returns what went wrong, as a user reads it.
func (e *PGNWriteError) Error() string { return e.Err.Error() }

// Unwrap returns the error of the write.
func (e *PGNWriteError) Unwrap() error { return e.Err }

// OpenSink opens the records file at path as OpenLogFunc does (created if needed, locked,
// a cut-short last line removed, each record it holds handed to each), then the PGN file of
// opts, locked as well: rebuilt from the records, or opened for appending. An error from each
// is returned as it is, and leaves both files untouched.
func OpenSink(path string, opts SinkOptions, each func(*Record) error) (*Sink, error) {
	log, err := OpenLogFunc(path, opts.Read, each)
	if err != nil {
		return nil, err
	}
	s := &Sink{log: log, opts: opts}
	if opts.PGN == "" {
		return s, nil
	}
	if opts.RebuildPGN {
		s.pgn, err = s.rebuildPGN(path)
	} else {
		s.pgn, err = openAppending(opts.PGN)
	}
	if err != nil {
		log.Close()
		return nil, err
	}
	return s, nil
}

// openAppending opens the file at path for appending, created if needed, under a Log's lock.
func openAppending(path string) (*os.File, error) {
	f, err := openLocked(path)
	if err != nil {
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, fileError(err, "%w", err)
	}
	return f, nil
}

// rebuildPGN truncates the PGN file under its lock and writes into it the PGN of every record
// of the records file at path, read again whole, one at a time.
func (s *Sink) rebuildPGN(path string) (*os.File, error) {
	f, err := CreateLocked(s.opts.PGN)
	if err != nil {
		return nil, err
	}
	_, err = ReadFileFunc(path, ReadOptions{SkipBad: s.opts.Read.SkipBad}, func(r *Record) error {
		return s.writePGN(f, r)
	})
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (s *Sink) writePGN(f *os.File, r *Record) error {
	if err := WritePGN(f, r, PGNOptions{Event: s.opts.Event}); err != nil {
		return &FileError{Msg: fmt.Sprintf("writing %s: %v", s.opts.PGN, err), Err: err}
	}
	return nil
}

// Append writes a finished game: its record, appended and synced (Log.Append), then its PGN.
// A record that could not be written is the Log's error, and ends the sink's records; a PGN
// that could not be written after the record is a *PGNWriteError.
func (s *Sink) Append(r *Record) error {
	if err := s.log.Append(r); err != nil {
		return err
	}
	return s.appendPGN(r)
}

// appendPGN writes a game's PGN; it does nothing without a PGN file. A write that fails, or a
// file removed or replaced under the run (CheckSameFile), is a *PGNWriteError.
func (s *Sink) appendPGN(r *Record) error {
	if s.pgn == nil {
		return nil
	}
	if err := s.writePGN(s.pgn, r); err != nil {
		return &PGNWriteError{err}
	}
	if err := CheckSameFile(s.pgn, s.opts.PGN); err != nil {
		return &PGNWriteError{err}
	}
	return nil
}

// Records is the records file's Log: what the sink found wrong with it as it opened (Damage).
func (s *Sink) Records() *Log { return s.log }

// Close closes both files.
func (s *Sink) Close() error {
	err := s.log.Close()
	if s.pgn != nil {
		if perr := s.pgn.Close(); err == nil && perr != nil {
			err = fileError(perr, "%w", perr)
		}
	}
	return err
}
