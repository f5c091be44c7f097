package ci

import (
	"encoding/xml"
	"fmt"
	"io"
	"time"

	"hivearbiter/arbiter/compliance"
)

// A Suite is a JUnit test suite: a check of one engine, or a gate.
type Suite struct {
	Name       string
	Timestamp  time.Time     // when it started; zero: left out
	Time       time.Duration // how long it took; zero: left out
	Properties []Property    // settings worth seeing beside the cases (the engine, the SPRT)
	Cases      []Case
}

// A Property is a name and value of a suite.
type Property struct{ Name, Value string }

// A Case is one JUnit test case. It passed unless Failure or Skipped is set.
type Case struct {
	Name      string
	ClassName string // groups cases in a report: the suite's subject, such as "check.hivebot"
	Failure   string // why it failed, in one line: the failure's message
	Detail    string // the failure's (or a passing case's) text, whole
	Skipped   string // why it was not run
}

// junitSuites is the document: <testsuites> holding <testsuite> elements, as Ant, Maven's
// Surefire and Go's go-junit-report write it and Jenkins, GitLab and the GitHub report actions
// read it (testdata/junit.xsd).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr,omitempty"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Time       string           `xml:"time,attr,omitempty"`
	Timestamp  string           `xml:"timestamp,attr,omitempty"`
	Properties *junitProperties `xml:"properties"`
	Cases      []junitCase      `xml:"testcase"`
}

type junitProperties struct {
	Properties []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Skipped   *junitMessage `xml:"skipped"`
	Failure   *junitMessage `xml:"failure"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the suites as one JUnit XML document.
func WriteJUnit(w io.Writer, suites ...Suite) error {
	doc := junitSuites{}
	var total time.Duration
	for _, s := range suites {
		js := junitSuite{Name: s.Name, Time: seconds(s.Time)}
		if !s.Timestamp.IsZero() {
			js.Timestamp = s.Timestamp.UTC().Format("2006-01-02T15:04:05")
		}
		if len(s.Properties) > 0 {
			js.Properties = &junitProperties{}
			for _, p := range s.Properties {
				js.Properties.Properties = append(js.Properties.Properties, junitProperty(p))
			}
		}
		for _, c := range s.Cases {
			jc := junitCase{Name: c.Name, ClassName: c.ClassName}
			switch {
			case c.Failure != "":
				jc.Failure = &junitMessage{Message: c.Failure, Type: "failure", Text: c.Detail}
				js.Failures++
			case c.Skipped != "":
				jc.Skipped = &junitMessage{Message: c.Skipped}
				js.Skipped++
			default:
				jc.SystemOut = c.Detail
			}
			js.Cases = append(js.Cases, jc)
		}
		js.Tests = len(s.Cases)
		doc.Tests += js.Tests
		doc.Failures += js.Failures
		doc.Skipped += js.Skipped
		total += s.Time
		doc.Suites = append(doc.Suites, js)
	}
	doc.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("ci: junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// seconds is a duration as JUnit writes it, in seconds with milliseconds; "" for zero.
func seconds(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	return fmt.Sprintf("%.3f", d.Seconds())
}

// CheckSuite is the suite of an arbiter check of one engine: a case per row of the check's
// table, passed, failed or skipped as the row is (a warned row passes, its detail marked). startErr, when the engine could not be
// started at all, is a failed case of its own, as the command's last line reports it.
func CheckSuite(engine string, checks []compliance.Result, startErr error) Suite {
	s := Suite{Name: "arbiter check " + engine, Properties: []Property{{"engine", engine}}}
	class := "check." + engine
	for _, c := range checks {
		k := Case{Name: c.Name, ClassName: class}
		switch c.Status {
		case compliance.Failed:
			k.Failure, k.Detail = firstLine(c.Detail), c.Detail
		case compliance.Skipped:
			k.Skipped = c.Detail
		case compliance.Warned: // a failure a match never meets: it passes, and says so
			k.Detail = "warning: " + c.Detail
		default:
			k.Detail = c.Detail
		}
		s.Cases = append(s.Cases, k)
	}
	if startErr != nil {
		s.Cases = append(s.Cases, Case{Name: "start", ClassName: class, Failure: "the engine could not be started", Detail: startErr.Error()})
	}
	return s
}

// firstLine is a text's first line, for a failure's one-line message.
func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
