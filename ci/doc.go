// Package ci writes what a CI job reads besides the exit code: JUnit XML (a test case per row
// of arbiter check, or one for a gate's decision) for the test-report views of Jenkins, GitLab
// and the GitHub actions that read it; a Markdown summary of a result (the result block, the
// SPRT and the misbehaviour table) for GitHub's job summary ($GITHUB_STEP_SUMMARY); and GitHub
// Actions workflow commands, which show a failed gate or check as an annotation on the run.
//
// It formats what other packages computed (results.Summary, compliance.Result) and decides
// nothing: whether a gate passed is the exit code's to say, and the command hands it in as a
// Verdict. What it does own is the wording: an SPRT's verdict in the words of its bounds and
// engines (elo.SPRT Hypotheses), and "failed" for a gate only, where a gain test that did not
// show its gain "ended".
package ci
