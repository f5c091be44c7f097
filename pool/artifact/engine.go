package artifact

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"hivearbiter/arbiter/driver"
)

// FromEngine is what submitting an engine packs, from the engine as arbiter match would start
// it: with dir=, that directory, the program (a runtime on the PATH, or a path inside the
// directory) and arguments run in it; without, the program file itself (builtin=hivebot is the
// arbiter's own binary), with its arguments.
func FromEngine(e driver.EngineConfig) (Source, error) {
	refuse := func(format string, args ...any) (Source, error) {
		return Source{}, fmt.Errorf("artifact: engine %q: %s", e.Name, fmt.Sprintf(format, args...))
	}
	if len(e.Command) == 0 {
		return refuse("no program to pack (a player reached with addr= is not an artifact)")
	}
	prog := e.Command[0]
	if e.Dir == "" {
		if !isPath(prog) {
			return refuse("cmd=%s runs a program of this machine's PATH: give dir=, the directory that holds the engine's files", prog)
		}
		return Source{Path: prog, Command: slices.Clone(e.Command)}, nil
	}
	cmd := slices.Clone(e.Command)
	for i, a := range cmd {
		rel, inside := within(e.Dir, a)
		switch {
		case inside:
			cmd[i] = rel
		case i == 0 && isPath(a):
			return refuse("the program %s is not inside dir=%s: name a runtime on the PATH (cmd=python3) or a program inside the directory", a, e.Dir)
		}
	}
	return Source{Path: e.Dir, Command: cmd}, nil
}

// within says whether a path names something inside dir (an absolute one, or a relative one
// that is a path, taken from dir), and how to name it from dir's root: "./" and the
// slash-separated path.
func within(dir, p string) (string, bool) {
	if !isPath(p) {
		return "", false
	}
	full := p
	if !filepath.IsAbs(p) {
		full = filepath.Join(dir, p)
	}
	absDir, err1 := filepath.Abs(dir)
	absFull, err2 := filepath.Abs(full)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(absDir, absFull)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return "./" + filepath.ToSlash(rel), true
}

// RunEngine is an engine as a run carries it once its artifact is uploaded: its command is the
// artifact's, relative to the artifact's root, and it has no directory of the submitter's.
// The rest (protocol, options, time control) is the engine's.
func RunEngine(e driver.EngineConfig, m Manifest) driver.EngineConfig {
	e.Command, e.Dir = slices.Clone(m.Command), ""
	return e
}

// Engine is a run's engine as a worker starts it from its fetched artifact: the program
// inside the artifact by its absolute path, the artifact's root as its working directory. The
// run's engine must run the artifact's program (see RunEngine); its arguments are the run's.
func (f Fetched) Engine(e driver.EngineConfig) (driver.EngineConfig, error) {
	if len(e.Command) == 0 || e.Command[0] != f.Manifest.Command[0] {
		return e, fmt.Errorf("artifact: engine %q runs %q, and its artifact %.12s runs %q", e.Name,
			strings.Join(e.Command, " "), f.SHA256, f.Manifest.Command[0])
	}
	e.Command = append([]string{f.Command[0]}, e.Command[1:]...)
	e.Dir = f.Dir
	return e, nil
}

// OverrideMismatchError is a worker's own -engine that does not pack to the run's artifact: it
// may not stand in for it.
type OverrideMismatchError struct {
	Engine   string
	Artifact string // the run's SHA-256
	Local    string // the worker's engine's, or empty when it could not be packed
	Reason   string
}

// Error names the worker's engine, the run's artifact and why they differ.
func (e *OverrideMismatchError) Error() string {
	return fmt.Sprintf("artifact: this worker's -engine %q is not the run's artifact %.12s: %s", e.Engine, e.Artifact, e.Reason)
}

// CheckOverride says whether a worker's own engine may run instead of the run's artifact: only
// when it packs (as FromEngine and Pack would submit it) to the same SHA-256. For a program
// file that is the file's own SHA-256; for a directory, that of its deterministic archive, so
// every file in it must be the same.
func CheckOverride(m Manifest, local driver.EngineConfig) error {
	mismatch := func(sum, reason string) error {
		return &OverrideMismatchError{Engine: local.Name, Artifact: m.SHA256, Local: sum, Reason: reason}
	}
	src, err := FromEngine(local)
	if err != nil {
		return mismatch("", err.Error())
	}
	h := sha256.New()
	got, err := Pack(Source{Path: src.Path, Command: src.Command, Platform: m.Platform, Runtime: m.Runtime}, h)
	switch {
	case err != nil:
		return mismatch("", err.Error())
	case got.Kind != m.Kind:
		return mismatch(got.SHA256, fmt.Sprintf("it is a %s, and the artifact a %s", got.Kind, m.Kind))
	case got.SHA256 != m.SHA256:
		return mismatch(got.SHA256, fmt.Sprintf("it hashes to %.12s (%s)", got.SHA256, src.Path))
	}
	return nil
}
