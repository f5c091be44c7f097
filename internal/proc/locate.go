package proc

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// LocateError is a program that cannot be run: missing, a directory, or not executable. It
// says so in words, not in the system call's.
type LocateError struct {
	Program string
	Problem string // what is wrong, as a sentence
	Err     error  // the system's error, when there is one, such as fs.ErrNotExist
}

// Error is the Problem, in words a user can act on.
func (e *LocateError) Error() string { return e.Problem }

// Unwrap returns the system's error, if there is one (fs.ErrNotExist, fs.ErrPermission).
func (e *LocateError) Unwrap() error { return e.Err }

// Locate says whether a program can be run from dir (empty: the current directory) as Start
// would run it: a name without a slash is looked up on the PATH, a relative path is taken from
// dir. What makes a file runnable is the platform's: its permission bits on Unix, its extension
// on Windows (see notRunnable). It returns a *LocateError that says what is wrong in words, or nil.
func Locate(program, dir string) error {
	var cause error
	bad := func(format string, args ...any) error {
		return &LocateError{Program: program, Problem: fmt.Sprintf(format, args...), Err: cause}
	}
	if program == "" {
		return bad("no engine program given")
	}
	if !strings.ContainsRune(program, '/') && !strings.ContainsRune(program, filepath.Separator) {
		if _, err := exec.LookPath(program); err != nil {
			cause = exec.ErrNotFound
			return bad("no program %q on the PATH: give its path (./%s for one in the current directory)", program, program)
		}
		return nil
	}
	path := program
	if dir != "" && !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	path = withExtension(path)
	where := ""
	if dir != "" && !filepath.IsAbs(program) {
		where = " in " + dir
	}
	st, err := os.Stat(path)
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		cause = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return bad("the program %q does not exist%s", program, where)
	case err != nil:
		return bad("the program %q cannot be read%s: %v", program, where, errors.Unwrap(err))
	case st.IsDir():
		cause = fs.ErrPermission
		return bad("%q%s is a directory, not a program", program, where)
	}
	if problem := notRunnable(st, path); problem != "" {
		cause = fs.ErrPermission
		return bad("the program %q%s %s", program, where, problem)
	}
	return nil
}
