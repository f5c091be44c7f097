package render

import (
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// A Table is rows of text cells under a header: the one renderer of the arbiter's tables, for a
// terminal (WriteText) and for a Markdown page (WriteMarkdown).
type Table struct {
	Header []string
	Rows   [][]string
	// Align is how each column's cells align in Markdown, by column (AlignNone for the columns
	// it does not name). A terminal's table aligns every cell right, as fastchess's do.
	Align []Align
	// RuleWidth is how wide each column's rule under a Markdown header is, colons included:
	// "---" and "--:" at 3 (when 0), ":---" and "---:" at 4.
	RuleWidth int
}

// Align is how the cells of a Markdown table's column align.
type Align int

// The alignments of a Markdown column.
const (
	AlignNone  Align = iota // the reader's default (a rule of dashes alone)
	AlignLeft               // a rule that starts with a colon
	AlignRight              // a rule that ends with a colon
)

// NewTable returns an empty table under header.
func NewTable(header ...string) *Table { return &Table{Header: header} }

// Append adds a row.
func (t *Table) Append(cells ...string) { t.Rows = append(t.Rows, cells) }

// WriteText writes the table for a terminal: a plain ASCII grid, its header and cells aligned
// right.
func (t *Table) WriteText(w io.Writer) error {
	table := tablewriter.NewTable(w,
		tablewriter.WithSymbols(tw.NewSymbols(tw.StyleASCII)),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignRight),
		tablewriter.WithRowAlignment(tw.AlignRight),
	)
	table.Header(t.Header)
	for _, row := range t.Rows {
		if err := table.Append(row); err != nil {
			return err
		}
	}
	return table.Render()
}

// WriteMarkdown writes the table as a GitHub Markdown table, each cell between single spaces
// ("| a | b |"), a column without a title left blank in the header ("| |"). Cells are written as
// they are: escaping what Markdown would read is the caller's, who knows which cells are text.
func (t *Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("|")
	for _, title := range t.Header {
		if title == "" {
			b.WriteString(" |")
		} else {
			b.WriteString(" " + title + " |")
		}
	}
	b.WriteString("\n|")
	width := t.RuleWidth
	if width == 0 {
		width = 3
	}
	for i := range t.Header {
		align := AlignNone
		if i < len(t.Align) {
			align = t.Align[i]
		}
		switch align {
		case AlignLeft:
			b.WriteString(":" + strings.Repeat("-", width-1))
		case AlignRight:
			b.WriteString(strings.Repeat("-", width-1) + ":")
		default:
			b.WriteString(strings.Repeat("-", width))
		}
		b.WriteString("|")
	}
	b.WriteString("\n")
	for _, row := range t.Rows {
		b.WriteString("|")
		for _, cell := range row {
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
