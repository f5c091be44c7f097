package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// An event is one line of go test -json; go doc cmd/test2json describes them.
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	FailedBuild string // of a package's fail event: the package that did not build
}

// A report reads go test -json, writes each package's lines as go test would when the package
// ends, and keeps the counts and lists the summary shows.
type report struct {
	w        io.Writer
	running  map[string]*packageRun
	order    []string // packages in the order they started, for those that never end
	passed   int
	failures []string            // "pkg.TestName", or a package or command that failed outside tests
	skips    map[string][]string // reason → "pkg.TestName"
	reasons  []string            // the keys of skips, in the order first seen
	raceOff  string              // why the race detector was off; "" when it was on
}

// A packageRun is the output of a package's test binary and the outcome of each of its tests.
type packageRun struct {
	lines   []event           // output events, in order
	outcome map[string]string // test → pass, fail or skip
	failed  bool              // a test failed
}

func newReport(w io.Writer) *report {
	return &report{w: w, running: map[string]*packageRun{}, skips: map[string][]string{}}
}

// read handles every event of in. A line that is not an event is written through.
func (r *report) read(in io.Reader) error {
	br := bufio.NewReader(in)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			var e event
			if json.Unmarshal(line, &e) == nil && e.Action != "" {
				r.add(e)
			} else {
				r.w.Write(line)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
	}
	// A package whose test binary never ended (go test was interrupted) failed.
	for _, pkg := range r.order {
		if _, ok := r.running[pkg]; ok && r.end(event{Action: "fail", Package: pkg}) {
			r.failures = append(r.failures, pkg+" [did not finish]")
		}
	}
	return nil
}

func (r *report) add(e event) {
	switch e.Action {
	case "build-output":
		io.WriteString(r.w, e.Output)
	case "start":
		r.run(e.Package)
	case "output":
		p := r.run(e.Package)
		p.lines = append(p.lines, e)
	case "pass", "fail", "skip":
		if e.Test == "" {
			if p := r.run(e.Package); r.end(e) {
				r.failures = append(r.failures, e.Package+" "+whyFailed(p, e))
			}
			return
		}
		p := r.run(e.Package)
		p.outcome[e.Test] = e.Action
		name := e.Package + "." + e.Test
		switch e.Action {
		case "pass":
			r.passed++
		case "fail":
			p.failed = true
			r.failures = append(r.failures, name)
		case "skip":
			reason := skipReason(p.lines, e.Test)
			if _, ok := r.skips[reason]; !ok {
				r.reasons = append(r.reasons, reason)
			}
			r.skips[reason] = append(r.skips[reason], name)
		}
	}
}

func (r *report) run(pkg string) *packageRun {
	p, ok := r.running[pkg]
	if !ok {
		p = &packageRun{outcome: map[string]string{}}
		r.running[pkg] = p
		r.order = append(r.order, pkg)
	}
	return p
}

// end writes a package's lines as go test does: for a package that passed, its "ok" line;
// for one that failed, everything but the output of the tests that passed or were skipped.
// It reports whether the package failed with no failing test to show for it.
func (r *report) end(e event) bool {
	p := r.run(e.Package)
	delete(r.running, e.Package)
	failed := e.Action == "fail"
	for _, l := range p.lines {
		switch {
		case !failed && l.Test == "" && l.Output != "PASS\n" && !strings.HasPrefix(l.Output, "testing: warning: no tests to run"),
			failed && (l.Test == "" || p.outcome[l.Test] == "fail" || p.outcome[l.Test] == ""):
			io.WriteString(r.w, l.Output)
		}
	}
	return failed && !p.failed
}

// whyFailed says why a package failed when none of its tests did: in go's words ("[build
// failed]", "[setup failed]") when it has them.
func whyFailed(p *packageRun, e event) string {
	for _, l := range p.lines {
		if _, why, ok := strings.Cut(l.Output, "FAIL\t"+e.Package+" ["); ok && l.Test == "" {
			return "[" + strings.TrimSpace(why)
		}
	}
	if e.FailedBuild != "" {
		return "[build failed]"
	}
	return "[failed outside any test]"
}

// goFailed records that the go command itself failed, when nothing else said so.
func (r *report) goFailed(why string) {
	if len(r.failures) == 0 {
		r.failures = append(r.failures, why)
	}
}

func (r *report) failed() int { return len(r.failures) }

func (r *report) skipped() int {
	n := 0
	for _, tests := range r.skips {
		n += len(tests)
	}
	return n
}

// logLine is the start of a message of t.Log, t.Skip and the like: "    file_test.go:12: ".
var logLine = regexp.MustCompile(`^\s*[^\s:]+\.go:\d+: `)

// skipReason is the last message the test logged, usually the argument of its t.Skip.
func skipReason(lines []event, test string) string {
	var msg []string
	for _, l := range lines {
		if l.Test != test {
			continue
		}
		text := strings.TrimRight(l.Output, "\n")
		switch {
		case logLine.MatchString(text):
			msg = []string{logLine.ReplaceAllString(text, "")}
		case strings.HasPrefix(text, "=== ") || strings.HasPrefix(text, "--- "):
		case msg != nil:
			msg = append(msg, strings.TrimSpace(text)) // a message's further lines
		}
	}
	if msg == nil {
		return "no reason given (t.SkipNow)"
	}
	return strings.Join(msg, " ")
}

// maxListed bounds the tests listed under one reason for skipping.
const maxListed = 5

func (r *report) summary() {
	if len(r.reasons) > 0 {
		fmt.Fprintf(r.w, "\nSkipped, by reason:\n")
		for _, reason := range r.reasons {
			tests := r.skips[reason]
			fmt.Fprintf(r.w, "%4d  %s\n", len(tests), reason)
			for i, t := range tests {
				if i == maxListed {
					fmt.Fprintf(r.w, "        and %d more\n", len(tests)-maxListed)
					break
				}
				fmt.Fprintf(r.w, "        %s\n", t)
			}
		}
	}
	if len(r.failures) > 0 {
		fmt.Fprintf(r.w, "\nFailed:\n")
		for _, f := range r.failures {
			fmt.Fprintf(r.w, "        %s\n", f)
		}
	}
	if r.raceOff != "" {
		fmt.Fprintf(r.w, "\nRace detector off: %s\n", r.raceOff)
	}
	fmt.Fprintf(r.w, "\n%d passed, %d failed, %d skipped\n", r.passed, r.failed(), r.skipped())
}
