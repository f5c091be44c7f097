package main

import (
	"errors"
	"fmt"
	"io"

	"hivearbiter/ci"
	"hivearbiter/elo"
	"hivearbiter/internal/cli"
)

// gateReport writes a gate's reports (ci.Reports) once its command has ended with err, with
// the verdict of its exit status. A refused command (exit code 2) writes nothing, as it writes
// no records. It returns err, or the error of a report that could not be written when err is
// nil.
func gateReport(reports *ci.Reports, stdout io.Writer, g ci.Gate, err error) error {
	code, msg := exitStatus(err)
	if code == ci.ExitUsage {
		return err
	}
	g.Verdict = ci.NewVerdict(code, msg, g.Summary)
	perr := reports.WriteGate(stdout, g)
	var ee *cli.ExitError
	switch {
	case perr == nil:
		return err
	case err == nil:
		return fmt.Errorf("writing the CI reports: %w", perr)
	case errors.As(err, &ee): // the command's own exit code is the gate's answer
		return cli.Exit(ee.Code, "%s (and writing the CI reports: %v)", ee.Msg, perr)
	}
	return errors.Join(err, perr)
}

// decisionExit is the exit status of an SPRT's decision (ci.DecisionCode): nil for H1.
func decisionExit(d elo.Decision) error {
	if code := ci.DecisionCode(d); code != ci.ExitOK {
		return cli.Exit(code, "")
	}
	return nil
}
