package ratinglist

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/proc"
	"hivearbiter/results"
)

// Self is the arbiter's own program, which a built-in engine (builtin=hivebot) runs: such an
// entrant is identified by the arbiter's version, not by the bytes of a binary that every
// build of the arbiter changes.
type Self struct {
	Path    string // the arbiter's executable
	Version string // its release version
}

// ThisArbiter is the arbiter this process runs, as a list that identifies its entrants sees
// it.
func ThisArbiter() Self {
	exe, _ := os.Executable()
	return Self{Path: exe, Version: arbiter.Version}
}

// identifyError is an entrant's program that cannot be hashed: missing, or unreadable.
type identifyError struct {
	msg string // without the package's name
	err error
}

// Error is the message after the package's name.
func (e *identifyError) Error() string { return "ratinglist: " + e.msg }

// Message is the error without the package's name, which IdentifyAll's refusal says.
func (e *identifyError) Message() string { return e.msg }

// Unwrap returns the system's error, for errors.Is(err, fs.ErrNotExist).
func (e *identifyError) Unwrap() error { return e.err }

// Identify hashes what an entrant runs: its program's bytes and those of every argument that
// names a file (a script, a jar, a network's weights), not their paths, its other arguments,
// environment, options and protocol settings. Two entrants with the same hash run the same bits the same way; a rebuilt
// binary under an old version name gets another hash, and the list refuses it.
func Identify(e driver.EngineConfig, self Self) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "proto %s\n", e.ProtocolName())
	if e.Addr != "" {
		fmt.Fprintf(h, "addr %s\n", e.Addr)
	}
	for i, word := range e.Command {
		path := word
		if i == 0 && filepath.Base(word) == word {
			found, err := exec.LookPath(word)
			if err != nil {
				return "", &identifyError{fmt.Sprintf("program %s: %v", word, err), err}
			}
			path = found
		} else if !filepath.IsAbs(path) && e.Dir != "" {
			path = filepath.Join(e.Dir, path)
		}
		if i == 0 && self.Path != "" && sameFile(path, self.Path) {
			fmt.Fprintf(h, "the arbiter %s\n", self.Version)
			continue
		}
		// A file counts by its bytes, not by where it lies: the same build moved or copied to
		// another machine is the same entrant.
		info, err := os.Stat(path)
		switch {
		case i == 0 && err != nil:
			return "", &identifyError{fmt.Sprintf("program %s: %v", word, err), err}
		case err != nil || !info.Mode().IsRegular():
			fmt.Fprintf(h, "word %q\n", word)
			continue
		}
		sum, err := proc.FileSHA256(path)
		if err != nil {
			return "", &identifyError{err.Error(), err}
		}
		fmt.Fprintf(h, "file %s\n", sum)
	}
	for _, v := range e.Env {
		fmt.Fprintf(h, "env %q\n", v)
	}
	for _, o := range e.Options {
		fmt.Fprintf(h, "option %q=%q\n", o.Name, o.Value)
	}
	keys := make([]string, 0, len(e.Settings))
	for k := range e.Settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(h, "setting %q=%q\n", k, e.Settings[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

func sameFile(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// IdentifyAll sets each entrant's Engine.Program to its hash (Identify) and refuses an entrant
// whose program is not the one its recorded games were played with: a changed build under an
// old version name.
func (l *List) IdentifyAll(self Self, recs []results.Record) error {
	var problems []string
	for i := range l.Entrants {
		e := &l.Entrants[i]
		sum, err := Identify(e.Engine, self)
		if err != nil {
			problems = append(problems, fmt.Sprintf("entrant %s cannot be identified: %v", e.Player(), driver.Message(err)))
			continue
		}
		e.Engine.Program = sum
	}
	recorded := map[string]string{}
	for i := range recs {
		for _, p := range []results.Player{recs[i].White, recs[i].Black} {
			if _, ok := recorded[p.Name]; !ok {
				recorded[p.Name] = p.Program
			}
		}
	}
	for _, e := range l.Entrants {
		if was, ok := recorded[e.Player()]; ok && e.Engine.Program != "" && was != e.Engine.Program {
			problems = append(problems, fmt.Sprintf("entrant %s is another program (%s) than the one its %s games were played with (%s): a changed build is a new version; enter it under a version of its own",
				e.Player(), e.Engine.Program, "recorded", was))
		}
	}
	if len(problems) > 0 {
		return &Error{strings.Join(problems, "; ")}
	}
	return nil
}
