package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// NamedFile is a file a command reads or writes, with the flag that names it, for messages.
type NamedFile struct {
	Flag  string // "-out", "-openings file=", ...
	Path  string
	Write bool // an output: it must be writable and must not name an input
}

// CheckFiles checks, before anything is played or written, every file a run will write: its
// directory exists, it is not a directory, it can be written, and no two of them (nor an output
// and an input) are the same file. transcripts, if set, must be a directory or creatable as
// one. It creates nothing, and returns every problem found, one error each.
func CheckFiles(files []NamedFile, transcripts string) []error {
	var problems []error
	for _, f := range files {
		if f.Path != "" && f.Write {
			if err := checkWritable(f.Path); err != nil {
				problems = append(problems, fmt.Errorf("%s %s: %v", f.Flag, f.Path, err))
			}
		}
	}
	for i, a := range files {
		for _, b := range files[i+1:] {
			if a.Path == "" || b.Path == "" || !a.Write && !b.Write || !sameFile(a.Path, b.Path) {
				continue
			}
			if a.Write && b.Write {
				problems = append(problems, fmt.Errorf("%s and %s name the same file (%s): each output needs a file of its own", a.Flag, b.Flag, a.Path))
				continue
			}
			out, in := a, b
			if !a.Write {
				out, in = b, a
			}
			problems = append(problems, fmt.Errorf("%s %s would overwrite the %s file: give it another name", out.Flag, out.Path, in.Flag))
		}
	}
	if transcripts != "" {
		if err := checkDirectory(transcripts); err != nil {
			problems = append(problems, fmt.Errorf("-transcripts %s: %v", transcripts, err))
		}
	}
	return problems
}

// checkWritable checks that path can be written as a file, without creating it.
func checkWritable(path string) error {
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return errors.New("is a directory; give a file name")
	case err == nil:
		f, err := os.OpenFile(path, os.O_WRONLY, 0) // neither truncates nor creates
		if err != nil {
			return errors.New("cannot be written (permission denied?)")
		}
		return f.Close()
	case !errors.Is(err, fs.ErrNotExist):
		return errors.New("cannot be read")
	}
	dir := filepath.Dir(path)
	info, err = os.Stat(dir)
	if err != nil || !info.IsDir() {
		return fmt.Errorf("the directory %s does not exist", dir)
	}
	return dirWritable(dir)
}

// checkDirectory checks that path is a directory files can be created in, or that it can be
// created (its nearest existing ancestor is such a directory).
func checkDirectory(path string) error {
	info, err := os.Stat(path)
	if err == nil {
		if !info.IsDir() {
			return errors.New("is a file; give a directory")
		}
		return dirWritable(path)
	}
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if info, err := os.Stat(dir); err == nil {
			if !info.IsDir() {
				return fmt.Errorf("%s is a file, so the directory cannot be created", dir)
			}
			return dirWritable(dir)
		}
		if dir == filepath.Dir(dir) {
			return errors.New("cannot be created")
		}
	}
}

// dirWritable checks that files can be created in dir by creating one and removing it: the
// only check that sees read-only file systems and access lists as well as permission bits.
func dirWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".arbiter-check-*")
	if err != nil {
		return fmt.Errorf("no file can be created in %s (permission denied?)", dir)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// sameFile reports whether two paths name one file: the same cleaned absolute path, or, for
// files that exist, the same file under two names (a link, a different spelling).
func sameFile(a, b string) bool {
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	if errA == nil && errB == nil && absA == absB {
		return true
	}
	infoA, errA := os.Stat(a)
	infoB, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(infoA, infoB)
}

// RecordsFiles names records files that a command reads, for CheckFiles.
func RecordsFiles(paths []string) []NamedFile {
	var files []NamedFile
	for _, p := range paths {
		files = append(files, NamedFile{Flag: "records", Path: p})
	}
	return files
}
