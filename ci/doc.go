// Package ci writes what a CI job reads besides the exit code: JUnit XML (a test case per row
// of arbiter check, or one for a gate's decision) for the test-report views of Jenkins, GitLab
// and the GitHub actions that read it; a Markdown summary of a result (the result block, the
// SPRT and the misbehaviour table) for GitHub's job summary ($GITHUB_STEP_SUMMARY); and GitHub
// Actions workflow commands, which show a failed gate or check as an annotation on the run.
//
// It owns the exit codes a CI job gates on (ExitOK, ExitH0, ...) and the tables between them:
// an SPRT's decision as an exit code (DecisionCode), and an exit code as a gate's verdict in
// words (NewVerdict). It formats what other packages computed (results.Summary, an
// arbiter.Outcome, compliance.Result) and decides nothing: whether a gate passed is the exit
// code's to say, and the command, which maps its errors to exit codes, hands the code in. What
// it does own is the wording: an SPRT's verdict in the words of its bounds and engines
// (elo.SPRT Hypotheses), and "failed" for a gate only, where a gain test that did not show its
// gain "ended". Reports are the flags and files of these reports (-junit, -summary).
package ci
