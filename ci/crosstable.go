package ci

import (
	"fmt"
	"strings"

	"hivearbiter/results"
)

// writeCrossTable writes who beat whom among three or more engines, the console's cross table
// (results.CrossTable), and nothing for fewer.
func writeCrossTable(b *strings.Builder, s *results.Summary) {
	if s == nil || len(s.Engines) < 3 {
		return
	}
	c := s.CrossTable()
	fmt.Fprintf(b, "**Cross table:** %s.\n\n| Rank | Engine | Score |", results.CrossTableCaption)
	sep := "|--:|---|--:|"
	for i := range c.Players {
		fmt.Fprintf(b, " %d |", i+1)
		sep += "--:|"
	}
	b.WriteString("\n" + sep + "\n")
	for i, p := range c.Players {
		fmt.Fprintf(b, "| %d | %s | %s |", i+1, cell(p.Name), results.PointsText(p.WDL))
		for j := range c.Players {
			fmt.Fprintf(b, " %s |", c.Cell(i, j))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}
