package arbiter

import (
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// WriteCheckTable writes the results of a compliance check as a text table (check, result,
// detail), each detail cut to width characters, or whole when width is 0 (a detail can be a
// whole engine reply, which would make every row as wide). cut reports whether a detail was
// cut, so that the caller can say how to see it whole.
func WriteCheckTable(w io.Writer, checks []CheckResult, width int) (cut bool, err error) {
	table := tablewriter.NewTable(w, tablewriter.WithSymbols(tw.NewSymbols(tw.StyleASCII)),
		tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAutoWrap(tw.WrapNone))
	table.Header("Check", "Result", "Detail")
	for _, c := range checks {
		detail := c.Detail
		if width > 3 && len(detail) > width {
			detail, cut = detail[:width-3]+"...", true
		}
		table.Append(c.Name, c.Status.String(), detail)
	}
	return cut, table.Render()
}
