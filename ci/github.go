package ci

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"hivearbiter/arbiter/compliance"
)

// GitHub is what GitHub Actions tells a step through its environment.
type GitHub struct {
	Actions     bool   // GITHUB_ACTIONS is true: workflow commands on standard output become annotations
	StepSummary string // GITHUB_STEP_SUMMARY: the file whose Markdown is the job's summary page
}

// GitHubFrom reads GitHub's variables through getenv (os.Getenv in a command).
func GitHubFrom(getenv func(string) string) GitHub {
	actions, _ := strconv.ParseBool(getenv("GITHUB_ACTIONS"))
	return GitHub{Actions: actions, StepSummary: getenv("GITHUB_STEP_SUMMARY")}
}

// Annotate writes one workflow command, "::error title=T::message", that GitHub shows as an
// annotation of the run. level is error, warning or notice.
func Annotate(w io.Writer, level, title, msg string) {
	fmt.Fprintf(w, "::%s title=%s::%s\n", level, escapeProperty(title), escapeData(msg))
}

// AnnotateGate annotates a gate: an error when it failed, a notice when it passed, a warning
// when a gain test ended without showing its gain, and a warning for each engine that lost
// games by misbehaviour.
func AnnotateGate(w io.Writer, g Gate) {
	msg := g.Verdict.Decision + ": " + g.Verdict.Reason
	switch _, word := g.outcome(); {
	case g.Verdict.Passed:
		Annotate(w, "notice", "Hive Arbiter gate passed", msg)
	case g.Failed():
		Annotate(w, "error", "Hive Arbiter gate failed", msg)
	default:
		Annotate(w, "warning", "Hive Arbiter SPRT "+word+": "+g.Verdict.Decision, msg)
	}
	if note := g.MirrorNote(); note != "" {
		Annotate(w, "notice", "Every pair was a mirror", note)
	}
	for _, name := range faultyEngines(g.Summary) {
		Annotate(w, "warning", name+" misbehaved", faultText(g.Summary.Faults[name]))
	}
}

// AnnotateChecks annotates each failed row of an arbiter check (a warned row as a warning), and
// an engine that could not be started.
func AnnotateChecks(w io.Writer, engine string, checks []compliance.Result, startErr error) {
	for _, c := range checks {
		switch c.Status {
		case compliance.Failed:
			Annotate(w, "error", "arbiter check "+engine+": "+c.Name, c.Detail)
		case compliance.Warned:
			Annotate(w, "warning", "arbiter check "+engine+": "+c.Name, c.Detail)
		}
	}
	if startErr != nil {
		Annotate(w, "error", "arbiter check "+engine+": start", startErr.Error())
	}
}

// escapeData escapes a workflow command's message as the Actions runner reads it back.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value (a title).
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
