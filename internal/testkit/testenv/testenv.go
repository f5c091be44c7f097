package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// otherNames are the names a program is installed under besides its usual one.
var otherNames = map[string][]string{
	"chromium": {"chromium-browser"}, // Ubuntu and Fedora
	"node":     {"nodejs"},           // older Debian and Ubuntu
}

// NeedChromium returns the path of Chromium (chromium or chromium-browser in PATH), or skips
// the test (fails it under CI) when there is none.
func NeedChromium(t testing.TB) string {
	t.Helper()
	return NeedProgram(t, "chromium", "apt-get install chromium")
}

// NeedNode returns the path of Node.js (node or nodejs in PATH), or skips the test (fails it
// under CI) when there is none.
func NeedNode(t testing.TB) string {
	t.Helper()
	return NeedProgram(t, "node", "apt-get install nodejs")
}

// NeedPython returns the path of Python 3 (python3 in PATH), or skips the test (fails it
// under CI) when there is none: for the bots the docs write in Python.
func NeedPython(t testing.TB) string {
	t.Helper()
	return NeedProgram(t, "python3", "apt-get install python3")
}

// NeedProgram returns the path of the program called name in PATH, also looking under the
// other names it is known to be installed under. When it is missing the test is skipped, or
// failed when CI is true, with a message naming the program and install, the command that
// installs it.
func NeedProgram(t testing.TB, name, install string) string {
	t.Helper()
	v := system.needProgram(name, install)
	v.apply(t)
	return v.path
}

// NeedRace skips the test (fails it under CI) unless the test binary was built with -race:
// for tests whose point is what the race detector sees.
func NeedRace(t testing.TB) {
	t.Helper()
	system.needRace().apply(t)
}

// environment is what the decisions read: the process's own, or a test's fake.
type environment struct {
	lookPath func(file string) (string, error)
	getenv   func(key string) string
	race     bool
}

var system = environment{lookPath: exec.LookPath, getenv: os.Getenv, race: raceEnabled}

// A verdict is what happens to a test that needs something: with no message it runs;
// otherwise it is skipped, or failed when fail is set.
type verdict struct {
	path string // the program found
	msg  string // why the test cannot run
	fail bool
}

func (e environment) needProgram(name, install string) verdict {
	names := append([]string{name}, otherNames[name]...)
	for _, n := range names {
		if path, err := e.lookPath(n); err == nil {
			return verdict{path: path}
		}
	}
	looked := ""
	if len(names) > 1 {
		looked = " (looked for " + strings.Join(names, ", ") + ")"
	}
	return e.missing(fmt.Sprintf("needs %s, not in PATH%s; install it: %s", name, looked, install))
}

func (e environment) needRace() verdict {
	if e.race {
		return verdict{}
	}
	return e.missing("needs the race detector (go test -race; on Linux and Windows it needs a C compiler: apt-get install gcc)")
}

// missing is the verdict on a test that lacks something: skip it, unless CI must run it.
func (e environment) missing(msg string) verdict {
	if ci, _ := strconv.ParseBool(e.getenv("CI")); ci {
		return verdict{msg: msg + " (CI=true: failing instead of skipping)", fail: true}
	}
	return verdict{msg: msg}
}

func (v verdict) apply(t testing.TB) {
	t.Helper()
	switch {
	case v.msg == "":
	case v.fail:
		t.Fatal(v.msg)
	default:
		t.Skip(v.msg)
	}
}
