package render

import (
	"fmt"
	"io"

	"hivearbiter/elo"
	"hivearbiter/results"
)

// CrossTableCell is the text of the cell of row i and column j: the points the row's player scored
// against the column's and the games they played ("2.5/4"), "-" when they never met, and ""
// on the diagonal.
func CrossTableCell(c *results.CrossTable, i, j int) string {
	switch {
	case i == j:
		return ""
	case c.Results[i][j].Games() == 0:
		return "-"
	}
	return PointsText(c.Results[i][j])
}

// PointsText is points of games: "2.5/4".
func PointsText(wdl elo.WDL) string {
	return fmt.Sprintf("%.1f/%d", wdl.Points(), wdl.Games())
}

// CrossTableCaption says how to read a cross table, after its title ("Cross table: "); its
// columns are numbered by rank.
const CrossTableCaption = "points/games of the row's engine against the column's (columns numbered by rank)"

// WriteCrossTable writes the cross table of three or more players under its caption, and
// nothing for fewer (the result block of two says it all).
func WriteCrossTable(w io.Writer, c *results.CrossTable) error {
	if len(c.Players) < 3 {
		return nil
	}
	if _, err := fmt.Fprintf(w, "Cross table: %s:\n", CrossTableCaption); err != nil {
		return err
	}
	return crossTable(c, "Name", func(s string) string { return s }).WriteText(w)
}

// crossTable is the cross table as a Table, its players' names under nameTitle, each escaped
// with escape (for Markdown).
func crossTable(c *results.CrossTable, nameTitle string, escape func(string) string) *Table {
	table := NewTable("Rank", nameTitle, "Score")
	for i := range c.Players {
		table.Header = append(table.Header, fmt.Sprint(i+1))
	}
	for i, p := range c.Players {
		row := []string{fmt.Sprint(i + 1), escape(p.Name), PointsText(p.WDL)}
		for j := range c.Players {
			row = append(row, CrossTableCell(c, i, j))
		}
		table.Append(row...)
	}
	return table
}

// MarkdownCrossTable is the cross table as a Markdown page shows it: the console's columns, the
// players' names under "Engine", each escaped with escape.
func MarkdownCrossTable(c *results.CrossTable, escape func(string) string) *Table {
	t := crossTable(c, "Engine", escape)
	t.Align = make([]Align, len(t.Header))
	for i := range t.Align {
		t.Align[i] = AlignRight
	}
	t.Align[1] = AlignNone
	return t
}
