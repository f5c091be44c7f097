package artifact

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// LeftBehindError is an engine whose program is a script that runs files beside it (a
// wrapper that execs its binary, say), which its artifact, the script alone, would not carry:
// no worker could start it.
type LeftBehindError struct {
	Engine  string   // the engine's name in the run, "" when not known
	Program string   // the script
	Files   []string // the files beside it that it names
}

// Error names the engine, its program and the files beside it that would not travel with it.
func (e *LeftBehindError) Error() string {
	who := ""
	if e.Engine != "" {
		who = fmt.Sprintf("engine %q: ", e.Engine)
	}
	dir, base := filepath.Split(e.Program)
	if dir == "" {
		dir = "."
	}
	return fmt.Sprintf("artifact: %s%s is a script that names %s beside it, which would not travel to the workers: an engine given as one file is uploaded alone. Give its directory instead: dir=%s cmd=./%s",
		who, e.Program, strings.Join(e.Files, ", "), filepath.Clean(dir), base)
}

// scriptScan bounds how much of a script CheckTravels reads.
const scriptScan = 64 << 10

// CheckTravels says whether a source's artifact carries what its program needs: a program
// file that is a #! script naming files that sit beside it (by name, or by a path that ends
// in their name: ./engine, "$(dirname "$0")/engine", ${0%/*}/engine) is refused with a
// *LeftBehindError, as the artifact of a file is that file alone. A directory carries every
// file in it, and a native program none.
func CheckTravels(src Source) error {
	st, err := os.Stat(src.Path)
	if err != nil || st.IsDir() {
		return nil // Pack says what is wrong with a path; a directory travels whole
	}
	f, err := os.Open(src.Path)
	if err != nil {
		return nil
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, scriptScan))
	if err != nil || !bytes.HasPrefix(text, []byte("#!")) {
		return nil
	}
	dir, self := filepath.Dir(src.Path), filepath.Base(src.Path)
	var beside []string
	seen := map[string]bool{self: true, ".": true, "..": true}
	for _, word := range strings.FieldsFunc(string(text), scriptSeparator) {
		name := word[strings.LastIndexByte(word, '/')+1:]
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			beside = append(beside, name)
		}
	}
	if len(beside) == 0 {
		return nil
	}
	return &LeftBehindError{Program: src.Path, Files: beside}
}

// scriptSeparator splits a shell script into the words that may name a file.
func scriptSeparator(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', ';', '|', '&', '(', ')', '<', '>', '=', '{', '}', '$', ',', '\\':
		return true
	}
	return false
}
