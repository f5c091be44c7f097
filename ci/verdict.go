package ci

import (
	"fmt"
	"strings"

	"hivearbiter/elo"
	"hivearbiter/results"
	"hivearbiter/results/render"
)

// SPRTReason says what a match's or records' SPRT found, as a gate's reason: the hypothesis it
// accepted (or that it accepted none), stated in the words of the test's bounds and engines,
// with the LLR and the bound it reached. It is "" without an SPRT.
func SPRTReason(s *results.Summary) string {
	g := Gate{Summary: s}
	test, ok := g.test()
	if !ok {
		return ""
	}
	t := s.SPRT
	h0, h1 := g.Hypotheses()
	bounds := fmt.Sprintf("[%g, %g] %s", test.Elo0, test.Elo1, test.Unit())
	decided := t.Decided()
	if t.DecidedAtCap && t.Threshold != nil && decided != elo.Continue {
		h, side := h1, "at or above"
		if decided == elo.AcceptH0 {
			h, side = h0, "below"
		}
		return fmt.Sprintf("the SPRT (%s) accepted %s, %s, at its cap of %d game pairs: LLR %.2f, between %.2f and %.2f, is %s the final threshold %.2f",
			bounds, t.Decision, h, t.Pairs, t.LLR, t.Lower, t.Upper, side, *t.Threshold)
	}
	switch decided {
	case elo.AcceptH1:
		return fmt.Sprintf("the SPRT (%s) accepted H1, %s: LLR %.2f reached %.2f", bounds, h1, t.LLR, t.Upper)
	case elo.AcceptH0:
		return fmt.Sprintf("the SPRT (%s) accepted H0, %s: LLR %.2f reached %.2f", bounds, h0, t.LLR, t.Lower)
	}
	// A match asked to end inconclusive at its cap stops there undecided; records (stats -sprt)
	// end where they end.
	return fmt.Sprintf("the SPRT (%s) decided nothing in %d game pairs: LLR %.2f, between %.2f and %.2f",
		bounds, t.Pairs, t.LLR, t.Lower, t.Upper)
}

// test is the gate's SPRT, if it ran one.
func (g Gate) test() (elo.SPRT, bool) {
	if g.Summary == nil || g.Summary.SPRT == nil {
		return elo.SPRT{}, false
	}
	t := g.Summary.SPRT
	model, err := elo.ParseModel(t.Model)
	if err != nil {
		return elo.SPRT{}, false
	}
	return elo.SPRT{Elo0: t.Elo0, Elo1: t.Elo1, Alpha: t.Alpha, Beta: t.Beta, Model: model}, true
}

// Hypotheses are the SPRT's H0 and H1 as sentences about the engines, "" without an SPRT.
func (g Gate) Hypotheses() (h0, h1 string) {
	test, ok := g.test()
	if !ok {
		return "", ""
	}
	first, second := "the first engine", "the second engine"
	if p := g.pairing(); p != nil {
		first, second = p.First, p.Second
	}
	return test.Hypotheses(first, second)
}

// Failed reports whether the run failed: it did not pass, and it is no gain test (elo.SPRT
// IsRegressionTest is false) that ended at its decision, H0 ("no gain") or none at its cap,
// which says only that the gain asked for was not shown. A gate's H0 rejects the change; a
// gain test stopped by engine failures, or interrupted, failed all the same.
func (g Gate) Failed() bool {
	if g.Verdict.Passed {
		return false
	}
	test, ok := g.test()
	return !ok || test.IsRegressionTest() || !g.Verdict.Tested
}

// outcome is the verdict's mark and word for a heading: passed, failed (a gate), or ended (a
// gain test that showed no gain).
func (g Gate) outcome() (mark, word string) {
	switch {
	case g.Verdict.Passed:
		return "✅", "passed"
	case g.Failed():
		return "❌", "failed"
	}
	return "➖", "ended"
}

// ExpectedLength says what the SPRT was expected to cost for game pairs distributed as this
// run's (elo.SPRT Expect), and what it cost: "" without an SPRT.
func (g Gate) ExpectedLength() string {
	test, ok := g.test()
	p := g.pairing()
	if !ok || p == nil {
		return ""
	}
	var shape [5]float64
	pairs := 0
	for i, c := range p.Pentanomial {
		shape[i] = float64(c)
		pairs += c
	}
	assumed := "for pairs distributed as this run's"
	if pairs == 0 {
		shape, assumed = elo.IndependentPairs(results.AssumedDrawRatio), results.AssumedShape
	}
	s := render.ExpectedLength(test, shape, assumed, g.Setup.MaxGames/2)
	s = strings.ToUpper(s[:1]) + s[1:]
	s += fmt.Sprintf("; this one played %d", g.Summary.SPRT.Pairs)
	if g.Setup.MaxGames > 0 {
		s += fmt.Sprintf(" of at most %d", g.Setup.MaxGames/2)
	}
	return s + "."
}

// setupLines are the gate's setup as lines of "name: value", for the summary and JUnit.
func (g Gate) setupLines() [][2]string {
	var lines [][2]string
	add := func(name, value string) {
		if value != "" {
			lines = append(lines, [2]string{name, value})
		}
	}
	s := g.Setup
	add("Limit", s.Limit)
	add("Game type", s.GameType)
	add("Openings", s.Openings)
	if s.MaxGames > 0 {
		add("Cap", fmt.Sprintf("%d games (%d pairs)", s.MaxGames, s.MaxGames/2))
	}
	for _, e := range s.Engines {
		id := e.ID
		if id == "" {
			id = "(no id given)"
		}
		add("Engine "+e.Name, id)
	}
	return lines
}

// writeSetup writes the setup as a Markdown list, for a reader who sees only the summary.
func writeSetup(b *strings.Builder, g Gate) {
	lines := g.setupLines()
	for _, l := range lines {
		fmt.Fprintf(b, "- %s: %s\n", l[0], mdText(l[1]))
	}
	if len(lines) > 0 {
		b.WriteString("\n")
	}
}

// writeHypotheses writes the SPRT's hypotheses in words and what it was expected to cost.
func writeHypotheses(b *strings.Builder, g Gate) {
	h0, h1 := g.Hypotheses()
	if h0 == "" {
		return
	}
	fmt.Fprintf(b, "H0: %s. H1: %s.", mdText(h0), mdText(h1))
	if cost := g.ExpectedLength(); cost != "" {
		b.WriteString(" " + cost)
	}
	b.WriteString("\n\n")
}

// mdText escapes what Markdown would read as markup in a name: an engine's id or name.
func mdText(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", "\n", " ").Replace(s)
}

// setupProperties are the setup as JUnit properties: limit, game_type, openings, max_games,
// and engine.NAME with each engine's id.
func (g Gate) setupProperties() []Property {
	var ps []Property
	add := func(name, value string) {
		if value != "" {
			ps = append(ps, Property{name, value})
		}
	}
	s := g.Setup
	add("limit", s.Limit)
	add("game_type", s.GameType)
	add("openings", s.Openings)
	if s.MaxGames > 0 {
		add("max_games", fmt.Sprint(s.MaxGames))
	}
	for _, e := range s.Engines {
		add("engine."+e.Name, e.ID)
	}
	return ps
}

// NewVerdict is what a gate's command that exited with code says of the gate: msg is the
// command's error message, "" when it printed none, and summary (nil when nothing was played)
// gives the SPRT's reason when the run ended at its test.
func NewVerdict(code int, msg string, summary *results.Summary) Verdict {
	v := Verdict{Passed: code == ExitOK, ExitCode: code, Decision: exitDecisions[code], Reason: msg}
	sprt := (*results.SPRTSummary)(nil)
	if summary != nil {
		sprt = summary.SPRT
	}
	switch {
	case code == ExitOK && sprt == nil:
		v.Decision, v.Reason = "finished", "the run finished (no SPRT to decide)"
	case sprt != nil && (code == ExitOK || code == ExitH0 || code == ExitInconclusive):
		v.Reason, v.Tested = SPRTReason(summary), true
	case v.Reason == "":
		v.Reason = v.Decision
	}
	if v.Decision == "" {
		v.Decision = fmt.Sprintf("exit code %d", code)
	}
	return v
}
