package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/testkit/golden"
)

// The canned streams under testdata are go test -json output of the packages of
// testdata/canned, without Time fields and with the checkout's path as /src, made with:
//
//	cd testdata/canned
//	go test -count=1 -json -short ./skips ./notests     | jq -c 'del(.Time)' > ../pass.json
//	go test -count=1 -json ./fails ./panics ./exits     | jq -c 'del(.Time)' > ../fail.json
//	go test -json ./broken ./needsbroken ./vet ./notests | jq -c 'del(.Time)' > ../build.json
func TestReport(t *testing.T) {
	tests := []struct {
		name                    string
		goFailed                string // the go command's error, if it had one
		passed, failed, skipped int
	}{
		{"pass", "", 3, 0, 5},               // skips grouped by reason, a subtest among them; a package with no tests
		{"fail", "exit status 1", 4, 5, 1},  // failed tests and subtests, a panic, a TestMain that fails; passing tests' output hidden
		{"build", "exit status 1", 0, 3, 0}, // a package that does not build, one that imports it, a vet error
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := os.Open(filepath.Join("testdata", tt.name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			var out bytes.Buffer
			r := newReport(&out)
			if err := r.read(in); err != nil {
				t.Fatal(err)
			}
			if tt.goFailed != "" {
				r.goFailed("go test: " + tt.goFailed)
			}
			r.summary()
			golden.Check(t, filepath.Join("testdata", tt.name+".golden"), out.Bytes())
			if r.passed != tt.passed || r.failed() != tt.failed || r.skipped() != tt.skipped {
				t.Errorf("%d passed, %d failed, %d skipped; want %d, %d, %d",
					r.passed, r.failed(), r.skipped(), tt.passed, tt.failed, tt.skipped)
			}
		})
	}
}

// TestReportOddStreams covers what no canned stream shows: go failing before any test, a
// stream cut short, and lines that are not events.
func TestReportOddStreams(t *testing.T) {
	tests := []struct {
		name, in, goFailed string
		want               string
	}{
		{"nothing to test", "", "",
			"\n0 passed, 0 failed, 0 skipped\n"},
		{"go fails first", "", "go test: exit status 1",
			"\nFailed:\n        go test: exit status 1\n\n0 passed, 1 failed, 0 skipped\n"},
		{"cut short", `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Package":"p","Test":"TestA","Output":"    a_test.go:3: working\n"}
`, "go test: signal: interrupt",
			"=== RUN   TestA\n    a_test.go:3: working\n\nFailed:\n        p [did not finish]\n\n0 passed, 1 failed, 0 skipped\n"},
		{"not an event", "go: downloading example.com/m v1.0.0\n{\"Action\":\"skip\",\"Package\":\"p\"}\n{}\n", "",
			"go: downloading example.com/m v1.0.0\n{}\n\n0 passed, 0 failed, 0 skipped\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			r := newReport(&out)
			if err := r.read(strings.NewReader(tt.in)); err != nil {
				t.Fatal(err)
			}
			if tt.goFailed != "" {
				r.goFailed(tt.goFailed)
			}
			r.summary()
			if d := golden.Diff(tt.want, out.String()); d != "" {
				t.Errorf("report differs:\n%s", d)
			}
		})
	}
}

func TestSkipReason(t *testing.T) {
	out := func(test, text string) event { return event{Action: "output", Test: test, Output: text} }
	tests := []struct {
		name  string
		test  string // default TestA
		lines []event
		want  string
	}{
		{"t.Skip", "", []event{out("TestA", "=== RUN   TestA\n"), out("TestA", "    a_test.go:8: needs node\n"), out("TestA", "--- SKIP: TestA (0.00s)\n")},
			"needs node"},
		{"the last message", "", []event{out("TestA", "    a_test.go:7: starting\n"), out("TestA", "    a_test.go:8: needs node\n")},
			"needs node"},
		{"two lines", "", []event{out("TestA", "    a_test.go:8: first\n"), out("TestA", "        second\n"), out("TestA", "--- SKIP: TestA (0.00s)\n")},
			"first second"},
		{"a subtest, among others", "TestA/b", []event{out("TestA", "    a_test.go:3: parent\n"), out("TestA/b", "        a_test.go:9: deep only\n"), out("TestA/c", "        a_test.go:9: other\n")},
			"deep only"},
		{"t.SkipNow", "", []event{out("TestA", "=== RUN   TestA\n"), out("TestA", "--- SKIP: TestA (0.00s)\n")},
			"no reason given (t.SkipNow)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test := tt.test
			if test == "" {
				test = "TestA"
			}
			if got := skipReason(tt.lines, test); got != tt.want {
				t.Errorf("skipReason = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNamesPackages(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"-short", "-run", "TestPerft/depth_4"}, false},
		{[]string{"-run=TestX", "./rules/"}, true},
		{[]string{"."}, true},
		{[]string{"../other/..."}, true},
	}
	for _, tt := range tests {
		if got := namesPackages(tt.args); got != tt.want {
			t.Errorf("namesPackages(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}
