package ci

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"hivearbiter/elo"
	"hivearbiter/results"
	"hivearbiter/results/render"
)

// WriteMarkdown writes a gate's outcome as Markdown for a job summary: a heading with the
// verdict, the result block as a table, the SPRT, a note when every pair was a mirror, and the
// misbehaviour table (or a line saying there was none).
func WriteMarkdown(w io.Writer, g Gate) error {
	var b strings.Builder
	mark, word := g.outcome()
	title := "Hive Arbiter"
	if g.Name != "" {
		title += ": " + g.Name
	}
	fmt.Fprintf(&b, "### %s %s %s: %s\n\n", mark, title, word, g.Verdict.Decision)
	fmt.Fprintf(&b, "Exit code %d: %s\n\n", g.Verdict.ExitCode, g.Verdict.Reason)
	writeSetup(&b, g)
	if s := g.Summary; s != nil && len(s.Pairings) > 0 {
		table := render.NewTable("Engines", "Games", "W", "D", "L", "Elo", "nElo", "LOS", "DrawRatio", "PairsRatio", "Ptnml(0-2)")
		table.Align = []render.Align{render.AlignNone, render.AlignRight, render.AlignRight, render.AlignRight, render.AlignRight,
			render.AlignRight, render.AlignRight, render.AlignRight, render.AlignRight, render.AlignRight, render.AlignNone}
		for i := range s.Pairings {
			p := &s.Pairings[i]
			table.Append(cell(p.First)+" vs "+cell(p.Second), fmt.Sprint(p.Games), fmt.Sprint(p.Wins), fmt.Sprint(p.Draws), fmt.Sprint(p.Losses),
				eloCell(p), neloCell(p), fmt.Sprintf("%.2f %%", 100*p.LOS), fmt.Sprintf("%.2f %%", 100*p.DrawRatio),
				pairsRatioCell(p), ptnmlText(p.Pentanomial))
		}
		table.WriteMarkdown(&b)
		b.WriteString("\n")
	}
	if line := sprtLine(g.Summary); line != "" {
		fmt.Fprintf(&b, "**SPRT** %s\n\n", line)
		writeHypotheses(&b, g)
	}
	if note := g.MirrorNote(); note != "" {
		fmt.Fprintf(&b, "> **Mirrors.** %s\n\n", note)
	}
	writeCrossTable(&b, g.Summary)
	writeFaultTable(&b, g.Summary)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeFaultTable writes each engine's games lost by misbehaviour, the console's table, or says
// that no engine misbehaved.
func writeFaultTable(b *strings.Builder, s *results.Summary) {
	if s == nil {
		return
	}
	if len(faultyEngines(s)) == 0 {
		b.WriteString("**Misbehaviour:** none (no time losses, crashes, stalls, illegal moves, desyncs, false claims or protocol violations).\n")
		return
	}
	b.WriteString("**Misbehaviour** (games lost by it):\n\n")
	table := render.NewTable("Engine")
	table.Align = []render.Align{render.AlignNone}
	for _, c := range render.FaultColumns() {
		table.Header = append(table.Header, c.Title)
		table.Align = append(table.Align, render.AlignRight)
	}
	for _, e := range s.Engines {
		row := []string{cell(e.Name)}
		for _, c := range render.FaultColumns() {
			row = append(row, fmt.Sprint(s.Faults[e.Name][c.Reason]))
		}
		table.Append(row...)
	}
	table.WriteMarkdown(b)
}

// faultyEngines names the engines that lost a game by misbehaviour, in the summary's order.
func faultyEngines(s *results.Summary) []string {
	if s == nil {
		return nil
	}
	var names []string
	for _, e := range s.Engines {
		if len(s.Faults[e.Name]) > 0 {
			names = append(names, e.Name)
		}
	}
	return names
}

// faultText lists an engine's faults: "time-forfeit 2, crash 1".
func faultText(f results.Faults) string {
	var parts []string
	for reason, n := range f {
		parts = append(parts, fmt.Sprintf("%s %d", reason, n))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// sprtLine is the SPRT's state in one line, or "" without one.
func sprtLine(s *results.Summary) string {
	if s == nil || s.SPRT == nil {
		return ""
	}
	t := s.SPRT
	decision := "no decision"
	switch t.Decided() {
	case elo.AcceptH1:
		decision = "H1 accepted"
	case elo.AcceptH0:
		decision = "H0 accepted"
	}
	if t.DecidedAtCap && t.Threshold != nil {
		decision += fmt.Sprintf(" at the cap, by the final threshold %.2f", *t.Threshold)
	}
	return fmt.Sprintf("([%.2f, %.2f], %s, alpha %g, beta %g): LLR %.2f (%.2f, %.2f) after %d game pairs: %s",
		t.Elo0, t.Elo1, t.Model, t.Alpha, t.Beta, t.LLR, t.Lower, t.Upper, t.Pairs, decision)
}

// eloCell is a pairing's Elo with its 95% interval, or what stands in its place.
func eloCell(p *results.PairingSummary) string {
	switch {
	case p.EloInfinity > 0:
		return "+inf"
	case p.EloInfinity < 0:
		return "-inf"
	case p.Elo == nil:
		return "undefined"
	case p.EloErrorUnbounded:
		return fmt.Sprintf("%+.2f ± inf", *p.Elo)
	case p.EloError == nil:
		return fmt.Sprintf("%+.2f", noNegativeZero(*p.Elo))
	}
	return fmt.Sprintf("%+.2f ± %.2f", noNegativeZero(*p.Elo), *p.EloError)
}

// neloCell is a pairing's normalized Elo with its 95% interval, or what stands in its place.
func neloCell(p *results.PairingSummary) string {
	switch {
	case p.EloInfinity > 0:
		return "+inf"
	case p.EloInfinity < 0:
		return "-inf"
	case p.NormalizedElo == nil:
		return "undefined"
	case p.NormalizedEloError == nil:
		return fmt.Sprintf("%+.2f", noNegativeZero(*p.NormalizedElo))
	}
	return fmt.Sprintf("%+.2f ± %.2f", noNegativeZero(*p.NormalizedElo), *p.NormalizedEloError)
}

func pairsRatioCell(p *results.PairingSummary) string {
	switch {
	case !p.StatisticsPentanomial:
		return "-"
	case p.PairsRatio == nil:
		return "inf"
	}
	return fmt.Sprintf("%.2f", *p.PairsRatio)
}

func ptnmlText(c [5]int) string {
	return fmt.Sprintf("[%d, %d, %d, %d, %d]", c[0], c[1], c[2], c[3], c[4])
}

// noNegativeZero keeps "-0.00" out of a table.
func noNegativeZero(x float64) float64 {
	if x == 0 || math.Abs(x) < 0.005 {
		return 0
	}
	return x
}

// cell escapes what would break a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
