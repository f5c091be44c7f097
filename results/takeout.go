package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
)

// TakeOut rewrites the records file at path without the records out selects, which it appends
// to the file aside first (created if need be, synced): nothing is lost, and a crash at any
// point leaves every record in path, in aside, or in both. The file is taken whole: written
// anew beside path, synced, and renamed over it, so that a reader sees the old file or the
// new one, never a file in part. It holds path's lock meanwhile: a run writing the file is a
// *LockedError, and nothing is changed. A line that is not a record, or a cut-short last line,
// stays as it is. It returns the records taken out, in the file's order; a file that does not
// exist is an error that matches os.ErrNotExist.
func TakeOut(path, aside string, out func(*Record) bool) ([]Record, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, missingFile{path} // not created, as a lock would
	}
	f, err := openLocked(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The lines kept go to the new file as they are read (a long run's records need not fit in
	// memory); those taken out, a worker's few, are held until the end.
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".new-*")
	if err != nil {
		return nil, fileError(err, "%w", err)
	}
	defer func() {
		tmp.Close()
		os.Remove(tmp.Name()) // a no-op once it is renamed
	}()
	keep := bufio.NewWriterSize(tmp, 64<<10)
	var gone bytes.Buffer
	var taken []Record
	rd := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := rd.ReadBytes('\n')
		if len(line) > 0 {
			var r Record
			if line[len(line)-1] == '\n' && json.Unmarshal(line, &r) == nil && out(&r) {
				gone.Write(line)
				taken = append(taken, r)
			} else if _, werr := keep.Write(line); werr != nil {
				return nil, fileError(werr, "writing %s: %w", tmp.Name(), werr)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fileError(err, "reading %s: %w", path, err)
		}
	}
	if len(taken) == 0 {
		return nil, nil
	}
	if err := appendSynced(aside, gone.Bytes()); err != nil {
		return nil, err
	}
	if err := keep.Flush(); err != nil {
		return nil, fileError(err, "writing %s: %w", tmp.Name(), err)
	}
	if err := replaceSynced(tmp, path); err != nil {
		return nil, err
	}
	return taken, nil
}

// appendSynced appends b to the file at path, creating it, and syncs it.
func appendSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fileError(err, "%w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fileError(err, "writing %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fileError(err, "syncing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fileError(err, "%w", err)
	}
	syncDir(filepath.Dir(path))
	return nil
}

// replaceSynced makes the new file tmp, written whole, the file at path: synced, renamed over
// it, and the directory synced.
func replaceSynced(tmp *os.File, path string) error {
	if err := tmp.Chmod(0o644); err != nil {
		return fileError(err, "%w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fileError(err, "syncing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fileError(err, "%w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fileError(err, "%w", err)
	}
	syncDir(filepath.Dir(path))
	return nil
}

// syncDir syncs a directory, so that a file created or renamed in it stays after a crash; a
// system that cannot (Windows) keeps it by the file's own sync.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
