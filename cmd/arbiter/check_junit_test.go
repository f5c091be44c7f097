package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"hivearbiter/ci"
	"hivearbiter/internal/testkit/testenv"
)

// junitSchema is the JUnit XML format as CI systems read it (see the file's comment).
const junitSchema = "../../ci/testdata/junit.xsd"

// junitDoc is what a report reader takes from a JUnit file.
type junitDoc struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
			} `xml:"failure"`
			Skipped *struct{} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readJUnit(t *testing.T, path string) junitDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	return doc
}

var checkSummaryLine = regexp.MustCompile(`(?m)(?:All (\d+) checks passed|(\d+) of (\d+) checks (?:failed|passed))`)

// TestCheckJUnit checks bundled hivebot (started as the arbiter binary starts it), a compliant
// fake engine and one that answers with illegal moves, with -junit under GitHub Actions: the
// file validates against the JUnit schema, holds a test case per row of the table, failed
// where the row failed, the exit code says whether any failed, and each failed row is also an
// annotation. hivebot must survive the SIGINT that ends a search (it died of it when the
// arbiter binary's interrupt handling ran around it); its two rows timed to the second can
// fail on a heavily loaded machine, so its exit code is only required to agree with its table.
func TestCheckJUnit(t *testing.T) {
	hivebot := []string{"-engine", "cmd=" + os.Args[0], "arg=hivebot", "name=hivebot", "env=ARBITER_TEST_MAIN=1", quickBench}
	const agree = -1 // the exit code must agree with the table
	tests := []struct {
		name   string
		engine []string
		code   int
	}{
		{"hivebot", hivebot, agree},
		{"compliant", fakeEngineArgs("fake", "random"), ci.ExitOK},
		{"illegal", fakeEngineArgs("fake", "illegal"), ci.ExitEngines},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GITHUB_ACTIONS", "true")
			t.Setenv("GITHUB_STEP_SUMMARY", "")
			file := filepath.Join(t.TempDir(), "check.xml")
			var stdout, stderr bytes.Buffer
			// Four timed searches measure the overshoot: the JUnit file is the point here.
			args := append([]string{"check", "-games", "1", "-plies", "6", "-searches", "4", "-junit", file}, tc.engine...)
			err := run(context.Background(), args, &stdout, &stderr)
			code := exitCode(err, &stderr)
			if tc.code != agree && code != tc.code {
				t.Fatalf("exit code %d, want %d\n%s%s", code, tc.code, stdout.String(), stderr.String())
			}
			for _, died := range []string{"context canceled", "failed validmoves", "the engine exited"} {
				if strings.Contains(stdout.String(), died) {
					t.Errorf("the engine died during its check (%q):\n%s", died, stdout.String())
				}
			}
			testenv.ValidateXML(t, file, junitSchema)
			doc := readJUnit(t, file)
			rows := strings.Count(stdout.String(), "| pass ") + strings.Count(stdout.String(), "| FAIL ") + strings.Count(stdout.String(), "| skip ") +
				strings.Count(stdout.String(), "| warn ")
			failed := strings.Count(stdout.String(), "| FAIL ")
			if len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != rows || doc.Tests != rows || rows == 0 {
				t.Fatalf("JUnit has %d suites, %d tests, want one suite of the table's %d rows:\n%s", len(doc.Suites), doc.Tests, rows, stdout.String())
			}
			if m := checkSummaryLine.FindStringSubmatch(stdout.String() + stderr.String()); m == nil {
				t.Errorf("no summary line:\n%s%s", stdout.String(), stderr.String())
			} else if total, _ := strconv.Atoi(m[1] + m[3]); total != rows {
				t.Errorf("the summary counts %d checks, the table shows %d rows", total, rows)
			}
			if doc.Failures != failed || (code == ci.ExitOK) != (failed == 0) || code != ci.ExitOK && code != ci.ExitEngines {
				t.Errorf("JUnit counts %d failures; the table shows %d failed rows (exit %d)", doc.Failures, failed, code)
			}
			for _, c := range doc.Suites[0].Cases {
				if c.Failure != nil && c.Failure.Message == "" {
					t.Errorf("case %q failed without a message", c.Name)
				}
			}
			if n := strings.Count("\n"+stdout.String(), "\n::error title=arbiter check "); n != failed {
				t.Errorf("%d error annotations for %d failed rows:\n%s", n, failed, stdout.String())
			}
		})
	}
}
