package artifact

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"hivearbiter/internal/proc"
)

// KnownRuntimes are the runtimes a worker looks for on its PATH and reports: the interpreters
// of scripted engines, a #!/bin/sh wrapper's among them (a script's runtime is its #! line's).
var KnownRuntimes = []string{"python3", "node", "sh", "bash"}

// Host is what a worker is: its platform, and the runtimes it has.
type Host struct {
	Platform string   // GOOS/GOARCH
	Runtimes []string // programs on its PATH that run scripted engines, sorted
}

// ThisPlatform is this machine's platform as runs name it: GOOS/GOARCH.
func ThisPlatform() string { return runtime.GOOS + "/" + runtime.GOARCH }

// ThisHost is this machine: runtime.GOOS/GOARCH, and those of KnownRuntimes and of runtimes
// that internal/proc.Locate finds on the PATH or that sit where #! lines name them.
func ThisHost(runtimes ...string) Host {
	h := Host{Platform: ThisPlatform()}
	for _, r := range slices.Concat(KnownRuntimes, runtimes) {
		if !slices.Contains(h.Runtimes, r) && (proc.Locate(r, "") == nil || atShebangPath(r)) {
			h.Runtimes = append(h.Runtimes, r)
		}
	}
	slices.Sort(h.Runtimes)
	return h
}

// atShebangPath reports whether a runtime is where #! lines name it, /bin or /usr/bin, off
// Windows: the system runs "#!/bin/sh" from there whatever the worker's PATH holds.
func atShebangPath(name string) bool {
	if runtime.GOOS == "windows" || strings.ContainsAny(name, `/\`) {
		return false
	}
	for _, dir := range []string{"/bin", "/usr/bin"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return true
		}
	}
	return false
}

// NotRunnableError is an artifact a host cannot run: built for another platform, or needing a
// runtime the host lacks.
type NotRunnableError struct {
	SHA256 string
	Reason string
}

// Error is the Message after the package's name.
func (e *NotRunnableError) Error() string { return "artifact: " + e.Message() }

// Message names the artifact (its hash's first 12 digits) and why this host cannot run it,
// without the package's name: a run's fitness says it after its own words.
func (e *NotRunnableError) Message() string {
	return fmt.Sprintf("%.12s cannot run here: %s", e.SHA256, e.Reason)
}

// Runnable says whether the host can run an artifact, with a *NotRunnableError that says why
// not.
func (h Host) Runnable(m Manifest) error {
	if m.Platform != AnyPlatform && m.Platform != h.Platform {
		return &NotRunnableError{SHA256: m.SHA256, Reason: fmt.Sprintf("it is built for %s, and this worker is %s", m.Platform, h.Platform)}
	}
	if m.Runtime != "" && !slices.Contains(h.Runtimes, m.Runtime) {
		have := "none"
		if len(h.Runtimes) > 0 {
			have = fmt.Sprint(h.Runtimes)
		}
		return &NotRunnableError{SHA256: m.SHA256, Reason: fmt.Sprintf("it needs %s, and this worker's runtimes are %s", m.Runtime, have)}
	}
	return nil
}
