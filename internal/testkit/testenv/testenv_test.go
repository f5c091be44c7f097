package testenv

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// fakeEnvironment has the programs of path (name → path) and the variables of vars.
func fakeEnvironment(path, vars map[string]string, race bool) environment {
	return environment{
		lookPath: func(file string) (string, error) {
			if p, ok := path[file]; ok {
				return p, nil
			}
			return "", exec.ErrNotFound
		},
		getenv: func(key string) string { return vars[key] },
		race:   race,
	}
}

func TestNeedProgram(t *testing.T) {
	const chromiumMissing = "needs chromium, not in PATH (looked for chromium, chromium-browser); install it: apt-get install chromium"
	const ciFails = " (CI=true: failing instead of skipping)"
	tests := []struct {
		name       string
		program    string
		path, vars map[string]string
		want       verdict
	}{
		{"found", "chromium", map[string]string{"chromium": "/usr/bin/chromium"}, nil,
			verdict{path: "/usr/bin/chromium"}},
		{"found under another name", "chromium", map[string]string{"chromium-browser": "/snap/bin/chromium-browser"}, nil,
			verdict{path: "/snap/bin/chromium-browser"}},
		{"the usual name first", "node", map[string]string{"node": "/usr/bin/node", "nodejs": "/usr/bin/nodejs"}, nil,
			verdict{path: "/usr/bin/node"}},
		{"found under CI", "chromium", map[string]string{"chromium": "/usr/bin/chromium"}, map[string]string{"CI": "true"},
			verdict{path: "/usr/bin/chromium"}},
		{"missing skips", "chromium", nil, nil,
			verdict{msg: chromiumMissing}},
		{"missing skips when CI is not true", "chromium", nil, map[string]string{"CI": "false"},
			verdict{msg: chromiumMissing}},
		{"missing fails under CI", "chromium", nil, map[string]string{"CI": "true"},
			verdict{msg: chromiumMissing + ciFails, fail: true}},
		{"CI=1 is true too", "chromium", nil, map[string]string{"CI": "1"},
			verdict{msg: chromiumMissing + ciFails, fail: true}},
		{"python3 missing", "python3", map[string]string{"python": "/usr/bin/python"}, nil,
			verdict{msg: "needs python3, not in PATH; install it: apt-get install python3"}},
		{"no other names", "gcc", map[string]string{"cc": "/usr/bin/cc"}, nil,
			verdict{msg: "needs gcc, not in PATH; install it: apt-get install gcc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fakeEnvironment(tt.path, tt.vars, false).needProgram(tt.program, "apt-get install "+tt.program)
			if got != tt.want {
				t.Errorf("needProgram(%q) = %+v, want %+v", tt.program, got, tt.want)
			}
		})
	}
}

func TestNeedRace(t *testing.T) {
	const off = "needs the race detector (go test -race; on Linux and Windows it needs a C compiler: apt-get install gcc)"
	tests := []struct {
		name string
		race bool
		ci   string
		want verdict
	}{
		{"on", true, "", verdict{}},
		{"on under CI", true, "true", verdict{}},
		{"off skips", false, "", verdict{msg: off}},
		{"off fails under CI", false, "true", verdict{msg: off + " (CI=true: failing instead of skipping)", fail: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fakeEnvironment(nil, map[string]string{"CI": tt.ci}, tt.race).needRace()
			if got != tt.want {
				t.Errorf("needRace() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// childEnv marks the test binary run as a child by TestMissingProgram: TestChildNeedsProgram
// then needs the program it names.
const childEnv = "TESTENV_CHILD_NEEDS"

// TestChildNeedsProgram is TestMissingProgram's child; run by go test, it does nothing.
func TestChildNeedsProgram(t *testing.T) {
	name := os.Getenv(childEnv)
	if name == "" {
		return
	}
	NeedProgram(t, name, "apt-get install "+name)
	t.Log("ran with", name)
}

// TestMissingProgram runs the test binary itself as a test that needs a program missing from
// PATH, to see the real test skipped, or failed under CI, with a message naming the program.
func TestMissingProgram(t *testing.T) {
	const program = "testenv-no-such-program"
	tests := []struct {
		ci       string
		wantFail bool
		want     string
	}{
		{"", false, "--- SKIP: TestChildNeedsProgram"},
		{"true", true, "--- FAIL: TestChildNeedsProgram"},
	}
	for _, tt := range tests {
		t.Run("CI="+tt.ci, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestChildNeedsProgram$", "-test.v")
			cmd.Env = append(os.Environ(), childEnv+"="+program, "CI="+tt.ci, "PATH="+t.TempDir())
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if failed := errors.As(err, &exit); failed != tt.wantFail || (err != nil && !failed) {
				t.Errorf("CI=%q: exit %v, want failure %v\n%s", tt.ci, err, tt.wantFail, out)
			}
			for _, want := range []string{tt.want, "needs " + program + ", not in PATH; install it: apt-get install " + program} {
				if !strings.Contains(string(out), want) {
					t.Errorf("CI=%q: output lacks %q:\n%s", tt.ci, want, out)
				}
			}
			if strings.Contains(string(out), "ran with") {
				t.Errorf("CI=%q: the test went on without the program:\n%s", tt.ci, out)
			}
		})
	}
}
