package ci

import (
	"fmt"
	"strings"

	"hivearbiter/results"
)

// A Verdict is how a gate ended, as its exit code says: passed or failed, what decided it and
// why. The command that ran the gate fills it from its exit code, so that the report, the
// annotations and the status agree.
type Verdict struct {
	Passed   bool
	ExitCode int
	Decision string // what decided, in a few words: "H1 accepted", "H0 accepted", "no decision"
	Reason   string // why, in a sentence
	// Tested is set when the run ended as its SPRT said: at a decision, or at its cap
	// without one; not when engine failures stopped it, or an interrupt.
	Tested bool
}

// A Gate is the outcome of a match run as a gate: its summary (the result tables as JSON
// holds them), its verdict, and how many of its complete game pairs were mirrors.
type Gate struct {
	Name    string // the run's event, "CI regression gate"
	Summary *results.Summary
	Verdict Verdict
	Mirrors int // complete pairs that were one game with the colours swapped
	Pairs   int // complete pairs
	Setup   results.Setup
}

// AllMirrors reports whether every complete pair so far was a mirror: the engines played
// identically in every opening of the run.
func (g Gate) AllMirrors() bool { return g.Pairs > 0 && g.Mirrors == g.Pairs }

// MirrorNote says what a run of mirrors means, or "" when not every pair was one.
func (g Gate) MirrorNote() string {
	if !g.AllMirrors() {
		return ""
	}
	note := fmt.Sprintf("Every one of the %d game pairs was a mirror: the same game with the colours swapped, one point each. "+
		"The engines played identically in every opening, as the same deterministic build does at a fixed depth.", g.Pairs)
	if s := g.Summary; s != nil && s.SPRT != nil {
		if s.SPRT.Model == "normalized" {
			note += " Pairs without spread teach the normalized SPRT almost nothing, and it may run to its cap: a gate of such engines wants model=logistic (configs/ci-gate.toml)."
		} else {
			note += " The " + s.SPRT.Model + " SPRT counts each as evidence that neither engine is weaker."
		}
	}
	return note
}

// GateSuite is the JUnit suite of a gate: one case, the gate's decision, failed with the
// decision and the reason when the gate failed. Its text is the result lines, whole.
func GateSuite(g Gate) Suite {
	name := g.Name
	if name == "" {
		name = "gate"
	}
	s := Suite{Name: "arbiter " + name}
	caseName := "gate"
	if p := g.pairing(); p != nil {
		caseName = p.First + " vs " + p.Second
	}
	if t := g.Summary.SPRT; t != nil {
		s.Properties = append(s.Properties,
			Property{"sprt", fmt.Sprintf("elo0=%g elo1=%g alpha=%g beta=%g model=%s", t.Elo0, t.Elo1, t.Alpha, t.Beta, t.Model)})
	}
	s.Properties = append(s.Properties, g.setupProperties()...)
	s.Properties = append(s.Properties, Property{"exit_code", fmt.Sprint(g.Verdict.ExitCode)})
	k := Case{Name: caseName, ClassName: "gate", Detail: g.text()}
	if !g.Verdict.Passed {
		k.Failure = g.Verdict.Decision + ": " + g.Verdict.Reason
	}
	s.Cases = append(s.Cases, k)
	return s
}

// pairing is the head-to-head of a two-engine gate, or nil.
func (g Gate) pairing() *results.PairingSummary {
	if g.Summary == nil || len(g.Summary.Pairings) != 1 {
		return nil
	}
	return &g.Summary.Pairings[0]
}

// text is the gate's outcome in plain lines: the verdict, the figures, the SPRT, the faults.
func (g Gate) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (exit code %d): %s\n", g.Verdict.Decision, g.Verdict.ExitCode, g.Verdict.Reason)
	if p := g.pairing(); p != nil {
		fmt.Fprintf(&b, "%s vs %s: %d games, Elo %s, nElo %s, LOS %.2f %%, Ptnml(0-2) %s\n", p.First, p.Second, p.Games,
			eloCell(p), neloCell(p), 100*p.LOS, ptnmlText(p.Pentanomial))
	}
	for _, l := range g.setupLines() {
		fmt.Fprintf(&b, "%s: %s\n", l[0], l[1])
	}
	if line := sprtLine(g.Summary); line != "" {
		fmt.Fprintln(&b, "SPRT "+line)
		h0, h1 := g.Hypotheses()
		fmt.Fprintf(&b, "H0: %s. H1: %s.\n", h0, h1)
		if cost := g.ExpectedLength(); cost != "" {
			fmt.Fprintln(&b, cost)
		}
	}
	if note := g.MirrorNote(); note != "" {
		fmt.Fprintln(&b, note)
	}
	for _, name := range faultyEngines(g.Summary) {
		fmt.Fprintf(&b, "%s misbehaved: %s\n", name, faultText(g.Summary.Faults[name]))
	}
	return strings.TrimSuffix(b.String(), "\n")
}
