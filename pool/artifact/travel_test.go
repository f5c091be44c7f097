package artifact

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"hivearbiter/arbiter/driver"
)

// TestCheckTravels: a #! script that names a file beside it (a wrapper that execs its binary,
// however the shell spells the path) would arrive without it, and is refused with the files it
// names; a script that names nothing beside it, a native program and a directory travel.
func TestCheckTravels(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script string
		beside []string
		left   []string // nil: it travels
	}{
		{"dirname", "#!/bin/sh\nexec \"$(dirname \"$0\")/hivebot\" \"$@\"\n", []string{"hivebot"}, []string{"hivebot"}},
		{"parameter expansion", "#!/bin/sh\nexec ${0%/*}/engine-bin -v\n", []string{"engine-bin"}, []string{"engine-bin"}},
		{"relative", "#!/bin/bash\ncd \"$(dirname \"$0\")\"\n./engine --uhp\n", []string{"engine", "notes.txt"}, []string{"engine"}},
		{"variable and data", "#!/bin/sh\nBIN=./bot\nexec $BIN --weights=weights.bin\n", []string{"bot", "weights.bin"}, []string{"bot", "weights.bin"}},
		{"python", "#!/usr/bin/env python3\nimport sys\nopen('book.txt')\n", []string{"book.txt"}, []string{"book.txt"}},
		{"self-contained", "#!/bin/sh\nwhile read line; do echo ok; done\n", []string{"unrelated"}, nil},
		{"not a script", "\x7fELF engine bytes naming engine-bin", []string{"engine-bin"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.beside {
				writeFile(t, dir, f, "x", 0o755)
			}
			script := filepath.Join(dir, "run.sh")
			writeFile(t, dir, "run.sh", tc.script, 0o755)
			err := CheckTravels(Source{Path: script, Command: []string{script}})
			var left *LeftBehindError
			if tc.left == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.As(err, &left) || !slices.Equal(left.Files, tc.left) {
				t.Fatalf("%v: want a *LeftBehindError naming %v", err, tc.left)
			}
			if msg := err.Error(); !strings.Contains(msg, "dir="+dir+" cmd=./run.sh") {
				t.Errorf("%q does not say how to give the directory", msg)
			}
		})
	}
	// A directory carries everything in it.
	dir := t.TempDir()
	writeFile(t, dir, "run.sh", "#!/bin/sh\nexec ./engine\n", 0o755)
	writeFile(t, dir, "engine", "x", 0o755)
	if err := CheckTravels(Source{Path: dir, Command: []string{"./run.sh"}}); err != nil {
		t.Errorf("a directory: %v", err)
	}
}

// TestUploadEnginesRefusesLeftBehind: a run whose engine is a wrapper script given alone is
// refused before anything is uploaded, naming the engine and the file it would leave behind.
func TestUploadEnginesRefusesLeftBehind(t *testing.T) {
	s, obs := newStore(t, Limits{})
	dir := t.TempDir()
	writeFile(t, dir, "hivebot", "x", 0o755)
	writeFile(t, dir, "wrapper.sh", "#!/bin/sh\nexec \"$(dirname \"$0\")/hivebot\" \"$@\"\n", 0o755)
	good := t.TempDir()
	writeFile(t, good, "alone.sh", "#!/bin/sh\necho id alone\n", 0o755)
	engines := []driver.EngineConfig{{Name: "alone", Command: []string{filepath.Join(good, "alone.sh")}}, {Name: "dev", Command: []string{filepath.Join(dir, "wrapper.sh")}}}
	_, _, err := s.UploadEngines(t.Context(), engines)
	var left *LeftBehindError
	if !errors.As(err, &left) || left.Engine != "dev" || !slices.Equal(left.Files, []string{"hivebot"}) {
		t.Fatalf("%v: want a *LeftBehindError of engine dev naming hivebot", err)
	}
	if objects, err := obs.List(t.Context()); !errors.Is(err, jetstream.ErrNoObjectsFound) {
		t.Errorf("uploaded before the refusal: %d objects (%v)", len(objects), err)
	}
}

// FuzzCheckTravels: whatever a program file holds, CheckTravels does not fail but to refuse a
// #! script, and what it names as left behind are files that sit beside it, the script not
// among them.
func FuzzCheckTravels(f *testing.F) {
	f.Add("#!/bin/sh\nexec \"$(dirname \"$0\")/engine\" \"$@\"\n")
	f.Add("#!/bin/sh\nexec ${0%/*}/engine\n")
	f.Add("#!\n./run.sh ../engine / // engine/")
	f.Add("\x7fELF engine")
	dir := f.TempDir()
	writeFile(f, dir, "engine", "x", 0o755)
	writeFile(f, dir, "weights.bin", "x", 0o644)
	f.Fuzz(func(t *testing.T, script string) {
		path := writeFile(t, dir, "run.sh", script, 0o755)
		err := CheckTravels(Source{Path: path})
		if err == nil {
			return
		}
		var left *LeftBehindError
		if !errors.As(err, &left) || !strings.HasPrefix(script, "#!") || len(left.Files) == 0 {
			t.Fatalf("%q: %v, want nil or a *LeftBehindError of a #! script naming its files", script, err)
		}
		for _, name := range left.Files {
			if name != "engine" && name != "weights.bin" {
				t.Errorf("%q: names %q, which is not beside it", script, name)
			}
		}
	})
}
