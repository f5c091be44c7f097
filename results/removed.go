package results

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrFileGone is a file that a run writes, removed or replaced under it.
var ErrFileGone = errors.New("results: the file was removed or replaced under the run")

// CheckSameFile checks that path still names the file f that a run writes. A file removed or
// replaced under a run takes every later write with it, unnoticed: on Linux the writes
// succeed into a file that no name reaches, and are lost when the run ends. When path no
// longer names f, what f holds is written back to path (or, if another file is there now, to
// path.saved) and the error says where; a *FileError either way.
func CheckSameFile(f *os.File, path string) error {
	mine, err := f.Stat()
	if err != nil {
		return fileError(err, "%s: %w", path, err)
	}
	now, err := os.Stat(path)
	if err == nil && os.SameFile(mine, now) {
		return nil
	}
	what, to := "replaced by another file", path+".saved"
	if errors.Is(err, fs.ErrNotExist) {
		what, to = "removed", path
	}
	if serr := saveCopy(f, mine.Size(), to); serr != nil {
		return &FileError{Msg: fmt.Sprintf("%s was %s while the run wrote it, and what the run had written (%d bytes) could not be saved: %v",
			path, what, mine.Size(), serr), Err: serr}
	}
	return &FileError{Msg: fmt.Sprintf("%s was %s while the run wrote it: what the run had written (%d bytes) is saved to %s",
		path, what, mine.Size(), to), Err: ErrFileGone}
}

// saveCopy writes the first size bytes of f to a new file at path; it never overwrites one.
func saveCopy(f *os.File, size int64, path string) error {
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, io.NewSectionReader(f, 0, size)); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
