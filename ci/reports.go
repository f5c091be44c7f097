package ci

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/results"
)

// Reports are the files a CI job reads besides the exit code (-junit, -summary), and what
// GitHub Actions says through the environment.
type Reports struct {
	JUnit   string // the JUnit XML file, "" for none
	Summary string // the Markdown summary's file, "" for none
	GitHub  GitHub
}

// NewReports returns the Reports of a job run as GitHub Actions says through the
// environment, with no file yet (the command's -junit and -summary name them).
func NewReports() Reports { return Reports{GitHub: GitHubFrom(os.Getenv)} }

// Files are the reports' files, for the check of every output before a run starts.
func (o *Reports) Files() []results.NamedFile {
	return []results.NamedFile{{Flag: "-junit", Path: o.JUnit, Write: true}, {Flag: "-summary", Path: o.Summary, Write: true}}
}

// WriteGate writes the reports of a gate whose Verdict is set: the mirror note on the console
// (stdout), the annotations under GitHub Actions, the Markdown summary (to -summary's file and
// appended to the step summary) and the JUnit file. It returns every report it could not
// write.
func (o *Reports) WriteGate(stdout io.Writer, g Gate) error {
	if note := g.MirrorNote(); note != "" {
		fmt.Fprintln(stdout, "Note:", note)
	}
	if o.GitHub.Actions {
		AnnotateGate(stdout, g)
	}
	var md bytes.Buffer
	if o.Summary != "" || o.GitHub.StepSummary != "" {
		if err := WriteMarkdown(&md, g); err != nil {
			return err
		}
	}
	var problems []error
	if o.Summary != "" {
		problems = append(problems, os.WriteFile(o.Summary, md.Bytes(), 0o644))
	}
	if o.GitHub.StepSummary != "" {
		problems = append(problems, appendFile(o.GitHub.StepSummary, md.Bytes()))
	}
	if o.JUnit != "" {
		problems = append(problems, writeJUnitFile(o.JUnit, GateSuite(g)))
	}
	return errors.Join(problems...)
}

// WriteCheck writes an arbiter check's reports: annotations under GitHub Actions and the
// JUnit file, timed from started.
func (o *Reports) WriteCheck(stdout io.Writer, engine string, checks []compliance.Result, startErr error, started time.Time) error {
	if o.GitHub.Actions {
		AnnotateChecks(stdout, engine, checks, startErr)
	}
	if o.JUnit == "" {
		return nil
	}
	suite := CheckSuite(engine, checks, startErr)
	suite.Timestamp, suite.Time = started, time.Since(started)
	return writeJUnitFile(o.JUnit, suite)
}

func writeJUnitFile(path string, suites ...Suite) error {
	var b bytes.Buffer
	if err := WriteJUnit(&b, suites...); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// appendFile appends to a file that another program owns, such as GitHub's step summary.
func appendFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	return errors.Join(err, f.Close())
}

// RecordsGate is what game records read again (arbiter stats) leave for a gate's reports: the
// summary computed of them, the mirrors among their pairs and the setup they show.
func RecordsGate(name string, summary *results.Summary, recs []results.Record) Gate {
	g := Gate{Name: name, Summary: summary, Setup: results.SetupOf(recs)}
	g.Mirrors, g.Pairs = results.Mirrors(recs)
	return g
}

// MatchGate is what a finished match (out, nil when nothing was played) leaves for its gate's
// reports: its summary, the mirrors among the pairs it played, and its setup, whose openings
// and cap are the configuration's.
func MatchGate(cfg arbiter.Config, out *arbiter.Outcome) Gate {
	g := Gate{Name: cfg.Event}
	if out == nil {
		return g
	}
	g.Summary = out.Summary()
	g.Mirrors, g.Pairs = out.Mirrors, out.PlayedPairs
	g.Setup = out.Setup
	g.Setup.Openings, g.Setup.MaxGames = cfg.Openings.Description(), out.Scheduled
	return g
}
