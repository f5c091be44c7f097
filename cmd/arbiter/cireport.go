package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/compliance"
	"hivearbiter/ci"
	"hivearbiter/internal/cli"
	"hivearbiter/results"
)

// ciOptions are the flags for what a CI job reads besides the exit code (package ci), and
// what GitHub Actions says through the environment.
type ciOptions struct {
	junit   string
	summary string
	github  ci.GitHub
}

// Register adds -junit and -summary to a command's flags.
func (o *ciOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.junit, "junit", "", "also write the outcome as JUnit XML to this `file` (a gate: one test case, failed with the decision and the reason)")
	fs.StringVar(&o.summary, "summary", "", "also write a Markdown summary (result block, SPRT, misbehaviour) to this `file`; under GitHub Actions it is appended to $GITHUB_STEP_SUMMARY by itself")
	o.github = ci.GitHubFrom(os.Getenv)
}

// Files are the reports' files, for the check of every output before a run starts.
func (o *ciOptions) Files() []results.NamedFile {
	return []results.NamedFile{{Flag: "-junit", Path: o.junit, Write: true}, {Flag: "-summary", Path: o.summary, Write: true}}
}

// registerJUnit adds -junit alone (arbiter check).
func (o *ciOptions) registerJUnit(fs *flag.FlagSet) {
	fs.StringVar(&o.junit, "junit", "", "also write the checks as JUnit XML to this `file`: a test case per row")
	o.github = ci.GitHubFrom(os.Getenv)
}

// exitDecisions says, for each exit code, what decided a gate that ended with it. They are
// the table of exit.go in a gate's words; a code not here is the arbiter's own failure.
var exitDecisions = map[int]string{
	exitOK:           "H1 accepted",
	exitH0:           "H0 accepted",
	exitInconclusive: "no decision",
	exitEngines:      "stopped by engine failures",
	exitInterrupted:  "interrupted",
	exitUsage:        "refused",
	exitFailure:      "the arbiter failed",
}

// verdict is what the exit status of a gate's command says of it, with the summary's figures.
func verdict(err error, summary *results.Summary) ci.Verdict {
	var ee *cli.ExitError
	code, msg := exitCode(err, io.Discard), ""
	switch {
	case errors.As(err, &ee):
		msg = ee.Msg
	case err != nil:
		msg = cli.Message(err)
	}
	v := ci.Verdict{Passed: code == exitOK, ExitCode: code, Decision: exitDecisions[code], Reason: msg}
	sprt := (*results.SPRTSummary)(nil)
	if summary != nil {
		sprt = summary.SPRT
	}
	switch {
	case code == exitOK && sprt == nil:
		v.Decision, v.Reason = "finished", "the run finished (no SPRT to decide)"
	case sprt != nil && (code == exitOK || code == exitH0 || code == exitInconclusive):
		v.Reason, v.Tested = ci.SPRTReason(summary), true
	case v.Reason == "":
		v.Reason = v.Decision
	}
	if v.Decision == "" {
		v.Decision = fmt.Sprintf("exit code %d", code)
	}
	return v
}

// gateReport writes a gate's reports once its command has ended with err: the mirror note on
// the console, the annotations under GitHub Actions, the Markdown summary and the JUnit file.
// A refused command (exit code 2) writes nothing, as it writes no records. It returns err, or
// the error of a report that could not be written when err is nil.
func (o *ciOptions) gateReport(stdout io.Writer, g ci.Gate, err error) error {
	if exitCode(err, io.Discard) == exitUsage {
		return err
	}
	g.Verdict = verdict(err, g.Summary)
	if note := g.MirrorNote(); note != "" {
		fmt.Fprintln(stdout, "Note:", note)
	}
	if o.github.Actions {
		ci.AnnotateGate(stdout, g)
	}
	var md bytes.Buffer
	if o.summary != "" || o.github.StepSummary != "" {
		if werr := ci.WriteMarkdown(&md, g); werr != nil {
			return errors.Join(err, werr)
		}
	}
	var problems []error
	if o.summary != "" {
		problems = append(problems, os.WriteFile(o.summary, md.Bytes(), 0o644))
	}
	if o.github.StepSummary != "" {
		problems = append(problems, appendFile(o.github.StepSummary, md.Bytes()))
	}
	if o.junit != "" {
		problems = append(problems, writeJUnit(o.junit, ci.GateSuite(g)))
	}
	return reportErr(err, problems)
}

// checkReport writes an arbiter check's reports: annotations under GitHub Actions and the
// JUnit file.
func (o *ciOptions) checkReport(stdout io.Writer, engine string, checks []compliance.Result, startErr error, started time.Time) error {
	if o.github.Actions {
		ci.AnnotateChecks(stdout, engine, checks, startErr)
	}
	if o.junit == "" {
		return nil
	}
	suite := ci.CheckSuite(engine, checks, startErr)
	suite.Timestamp, suite.Time = started, time.Since(started)
	return writeJUnit(o.junit, suite)
}

// reportErr keeps the command's own error (its exit code is the gate's answer) and adds the
// reports that failed; with none of its own, a failed report is the arbiter failing.
func reportErr(err error, problems []error) error {
	perr := errors.Join(problems...)
	switch {
	case perr == nil:
		return err
	case err == nil:
		return fmt.Errorf("writing the CI reports: %w", perr)
	}
	var ee *cli.ExitError
	if errors.As(err, &ee) {
		return cli.Exit(ee.Code, "%s (and writing the CI reports: %v)", ee.Msg, perr)
	}
	return errors.Join(err, perr)
}

func writeJUnit(path string, suites ...ci.Suite) error {
	var b bytes.Buffer
	if err := ci.WriteJUnit(&b, suites...); err != nil {
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

// gateOf gathers what a finished match leaves for its gate reports: its summary and how many
// of its pairs, read back from its records, were mirrors.
func gateOf(cfg arbiter.Config, out *arbiter.Outcome) ci.Gate {
	g := ci.Gate{Name: cfg.Event}
	if out == nil {
		return g
	}
	g.Summary = out.Summary()
	if recs, err := results.ReadFile(cfg.Out); err == nil {
		g.Mirrors, g.Pairs = results.Mirrors(recs)
		g.Setup = results.SetupOf(recs)
	}
	g.Setup.Openings, g.Setup.MaxGames = cfg.Openings.Description(), out.Scheduled
	return g
}
