package compliance

import (
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// WriteTable writes the results of a compliance check as a text table (check, result,
// detail), each detail cut to width characters, or whole when width is 0 (a detail can be a
// whole engine reply, which would make every row as wide). cut reports whether a detail was
// cut, so that the caller can say how to see it whole.
func WriteTable(w io.Writer, checks []Result, width int) (cut bool, err error) {
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

// Summarize says how a check came out, in a sentence without its full stop: "All 21
// checks passed", "20 of 21 checks passed, 1 skipped", "19 of 21 checks passed, 2 warnings"
// or "2 of 21 checks failed, 1 skipped". failed reports whether any check failed: a failure
// that blocks a match, not a warning.
func Summarize(checks []Result) (summary string, failed bool) {
	count := map[Status]int{}
	for _, c := range checks {
		count[c.Status]++
	}
	var rest string
	if n := count[Warned]; n == 1 {
		rest = ", 1 warning (it does not block a match)"
	} else if n > 1 {
		rest = fmt.Sprintf(", %d warnings (they do not block a match)", n)
	}
	if count[Skipped] > 0 {
		rest += fmt.Sprintf(", %d skipped", count[Skipped])
	}
	switch {
	case count[Failed] > 0:
		return fmt.Sprintf("%d of %d checks failed%s", count[Failed], len(checks), rest), true
	case count[Skipped] > 0 || count[Warned] > 0:
		return fmt.Sprintf("%d of %d checks passed%s", count[Passed], len(checks), rest), false
	}
	return fmt.Sprintf("All %d checks passed", len(checks)), false
}

// Settings are the settings a check's rows found a match needs, in the rows' order:
// engine settings (key=value) and flags of the run (words beginning with "-").
func Settings(checks []Result) (engine, run []string) {
	for _, c := range checks {
		for _, s := range c.Settings {
			if strings.HasPrefix(s, "-") {
				run = append(run, s)
			} else {
				engine = append(engine, s)
			}
		}
	}
	return engine, run
}
