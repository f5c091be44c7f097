package main

import (
	"fmt"
	"io"
	"strings"

	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
	"hivearbiter/configs"
	"hivearbiter/internal/cli"
)

// writeCheckAdvice writes what "arbiter check" of an engine found a match needs: each row that
// says so, whole, the warnings, and (unless a check failed) a match command against the
// bundled engine that plays as pasted (configs.CheckedMatch), whose -engine line serves a gate's two
// builds.
func writeCheckAdvice(w io.Writer, engine driver.EngineConfig, checks []compliance.Result, failed bool, resolve configs.Resolver) {
	var warnings []string
	fmt.Fprintln(w)
	for _, c := range checks {
		switch {
		case len(c.Settings) > 0:
			fmt.Fprintf(w, "%s: %s\n", c.Name, c.Detail)
		case c.Status == compliance.Warned:
			warnings = append(warnings, fmt.Sprintf("  %s: %s", c.Name, c.Detail))
		}
	}
	if len(warnings) > 0 {
		fmt.Fprintf(w, "Warnings (a match does not meet them; the engine's author may want to know):\n%s\n", strings.Join(warnings, "\n"))
	}
	if failed {
		fmt.Fprintln(w, "A failed row is a fault a match meets: it refuses the engine before game 1 when the fault shows at its start, and forfeits its games when it shows later (docs/check.md: which rows block a match). Fix the first cause named above, then check again.")
		return
	}
	settings, flags := compliance.Settings(checks)
	match, err := configs.CheckedMatch(engine, settings, flags, resolve)
	if err != nil { // the check's own settings did not parse: a bug of the check, said rather than hidden
		fmt.Fprintf(w, "The settings it found do not make an -engine line (%v): %s\n", err, strings.Join(settings, " "))
		return
	}
	fmt.Fprintf(w, "To play it against the bundled engine, run:\n  %s\n", cli.QuoteArgs(append([]string{"arbiter", "match"}, match...)))
	fmt.Fprintln(w, "For a gate, give its -engine line once for each build, with that build's cmd=: each is named after its program's path (or give name=).")
}
