package site

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"hivearbiter/ratinglist"
	"hivearbiter/results/render"
)

// tableHeader names the columns of the console and Markdown tables.
var tableHeader = []string{"Rank", "Engine", "Elo", "+/-", "Games", "Score", "Draw", "LOS next", "Faults", "Avg opp", "Status"}

// tableLine is a rated row as the console and Markdown tables print it: an error above the
// list's target is marked with "?", as the chess lists mark a provisional rating.
func tableLine(l *ratinglist.List, r ratinglist.Row) []string {
	margin := "-"
	if r.Status != ratinglist.StatusAnchor {
		margin = fmt.Sprintf("%.0f", r.Error)
	}
	if r.Status == ratinglist.StatusProvisional || r.Status != ratinglist.StatusAnchor && r.Error > l.ErrorTarget {
		margin += "?"
	}
	los := "-"
	if r.LOSNext != nil {
		los = percent(*r.LOSNext, 0)
	}
	score, draw, opp := "-", "-", "-"
	if r.Games > 0 {
		score, draw, opp = percent(r.Score, 1), percent(r.DrawRatio(), 1), fmt.Sprintf("%.0f", r.AvgOpponent)
	}
	return []string{fmt.Sprint(r.Rank), r.Player, fmt.Sprintf("%.0f", r.Elo), margin, fmt.Sprint(r.Games),
		score, draw, los, fmt.Sprint(r.Faults), opp, string(r.Status)}
}

// summary is the line under a table: its games, the White advantage and when it was updated.
func summary(t *ratinglist.Table) string {
	s := fmt.Sprintf("%d games, %d rated; White advantage %s +/- %.0f Elo", t.Games, t.Rated, signed(t.WhiteAdvantage), t.WhiteAdvantageError)
	if t.VirtualDraws > 0 {
		s += fmt.Sprintf("; %g virtual draw(s) a pairing", t.VirtualDraws)
	}
	if t.Updated.IsZero() {
		return s + "; no game yet"
	}
	return s + "; updated " + t.Updated.UTC().Format(updatedLayout)
}

// notes are the entrants a table cannot rank, and the failed and refused ones, each with its
// reason.
func notes(t *ratinglist.Table) []string {
	group := map[string][]string{}
	for _, g := range t.Apart {
		for _, p := range g {
			group[p] = g
		}
	}
	var out []string
	for _, r := range t.Rows {
		var reason string
		switch r.Status {
		case ratinglist.StatusFailed, ratinglist.StatusRefused:
			reason = why(r)
		case ratinglist.StatusUnplayed:
			reason = "no game yet"
		case ratinglist.StatusApart:
			reason = "no game connects it to the anchor"
			if g := group[r.Player]; len(g) > 1 {
				reason += " (its group: " + strings.Join(g, ", ") + ")"
			}
		default:
			continue
		}
		out = append(out, fmt.Sprintf("%s (%s): %s", r.Player, r.Status, reason))
	}
	return out
}

// why says why a failed or refused entrant is not rated, "" for any other.
func why(r ratinglist.Row) string {
	switch r.Status {
	case ratinglist.StatusFailed:
		return "stopped after " + r.Failure
	case ratinglist.StatusRefused:
		return "refused before its first game: " + r.Failure
	}
	return ""
}

// WriteConsole writes the list's conditions and its table for a terminal: the rated entrants
// in a fixed-width table, then the entrants it cannot rank and the failed and refused ones,
// each with its reason. t is l's table; an error above l's target is marked with "?".
func WriteConsole(w io.Writer, l *ratinglist.List, t *ratinglist.Table) error {
	var b bytes.Buffer
	width := 0
	for _, c := range t.Conditions {
		width = max(width, len(c[0]))
	}
	fmt.Fprintf(&b, "%s (list %s)\n", t.List, t.ID)
	for _, c := range t.Conditions {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c[0], c[1])
	}
	b.WriteString("\n")
	table := render.NewTable(tableHeader...)
	for _, r := range t.Rows {
		if r.Rated {
			table.Append(tableLine(l, r)...)
		}
	}
	if err := table.WriteText(&b); err != nil {
		return err
	}
	b.WriteString(summary(t) + "\n")
	if n := notes(t); len(n) > 0 {
		b.WriteString("Not ranked, stopped or refused:\n")
		for _, line := range n {
			b.WriteString("  " + line + "\n")
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// WriteMarkdown writes the list's table as GitHub Markdown: a heading, the conditions, the
// ranked table, and the entrants it cannot rank with their reasons; provisional and failed
// ratings have their status in bold.
func WriteMarkdown(w io.Writer, l *ratinglist.List, t *ratinglist.Table) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", markdownText(t.List))
	conditions := render.NewTable("Condition", "")
	for _, c := range t.Conditions {
		conditions.Append(markdownText(c[0]), markdownText(c[1]))
	}
	conditions.WriteMarkdown(&b)
	b.WriteString("\n")
	ranking := &render.Table{Header: tableHeader, RuleWidth: 4}
	for i := range tableHeader {
		align := render.AlignRight
		if i == 1 || i == len(tableHeader)-1 {
			align = render.AlignLeft
		}
		ranking.Align = append(ranking.Align, align)
	}
	for _, r := range t.Rows {
		if !r.Rated {
			continue
		}
		cells := tableLine(l, r)
		for i := range cells {
			cells[i] = markdownText(cells[i])
		}
		if r.Status != ratinglist.StatusRated && r.Status != ratinglist.StatusAnchor {
			cells[len(cells)-1] = "**" + cells[len(cells)-1] + "**"
		}
		ranking.Append(cells...)
	}
	ranking.WriteMarkdown(&b)
	fmt.Fprintf(&b, "\n%s.\n", markdownText(summary(t)))
	if n := notes(t); len(n) > 0 {
		b.WriteString("\nNot ranked, stopped or refused:\n\n")
		for _, line := range n {
			b.WriteString("- " + markdownText(line) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownText keeps a cell's text from being read as Markdown or breaking its table.
func markdownText(s string) string {
	return strings.NewReplacer("\\", "\\\\", "|", "\\|", "*", "\\*", "_", "\\_", "`", "\\`", "<", "&lt;", "\n", " ").Replace(s)
}
