package compliance

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"hivearbiter/arbiter/driver"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// WriteTable writes the results of a compliance check as a text table (check, result,
// detail), each detail wrapped at width characters, or on one line when width is 0. Nothing
// of a detail is cut: the decisive word of an error is often its last. cut is always false;
// it stays for callers that said how to see a detail whole.
func WriteTable(w io.Writer, checks []Result, width int) (cut bool, err error) {
	table := tablewriter.NewTable(w, tablewriter.WithSymbols(tw.NewSymbols(tw.StyleASCII)),
		tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAutoWrap(tw.WrapNone))
	table.Header("Check", "Result", "Detail")
	for _, c := range checks {
		table.Append(c.Name, c.Status.String(), Wrap(c.Detail, width))
	}
	return false, table.Render()
}

// Wrap breaks text into lines of at most width characters at spaces (a word longer than
// width is broken where it must be), or leaves it whole when width is 0 or less or the text
// fits. Bytes that are not UTF-8 are kept as they are, each counted as a character.
func Wrap(text string, width int) string {
	if width <= 0 || utf8.RuneCountInString(text) <= width {
		return text
	}
	var lines []string
	line, n := "", 0 // the line so far and its width
	for _, word := range strings.Fields(text) {
		w := utf8.RuneCountInString(word)
		if n > 0 && n+1+w > width {
			lines, line, n = append(lines, line), "", 0
		}
		for n == 0 && w > width {
			cut := 0
			for range width {
				_, size := utf8.DecodeRuneInString(word[cut:])
				cut += size
			}
			lines, word, w = append(lines, word[:cut]), word[cut:], w-width
		}
		if n > 0 {
			line, n = line+" ", n+1
		}
		line, n = line+word, n+w
	}
	if n > 0 {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// Cause is one first cause of a check's faults: a diagnosis (driver.Diagnoses) with the rows
// it explains, or one failed row that no diagnosis explains.
type Cause struct {
	Diagnosis driver.Diagnosis // zero for a row without one
	Rows      []string
	Status    Status // Failed when one of its rows failed, else Warned
	Detail    string // the row's detail, for a cause without a diagnosis
}

// Headline is the cause and its fix in one line.
func (c Cause) Headline() string {
	if c.Diagnosis.ID != "" {
		return c.Diagnosis.Headline()
	}
	return c.Rows[0] + ": " + c.Detail
}

// Causes groups the faults of a check by their first cause: each diagnosis once, with every
// row it explains, in the order its first row ran; the failures first, then the warnings of
// a diagnosis. A failed row without a diagnosis is a cause of its own.
func Causes(checks []Result) []Cause {
	var causes []Cause
	index := map[string]int{}
	for _, status := range []Status{Failed, Warned} {
		for _, c := range checks {
			switch {
			case c.Diagnosis == "" && c.Status == Failed && status == Failed:
				causes = append(causes, Cause{Rows: []string{c.Name}, Status: Failed, Detail: c.Detail})
			case c.Diagnosis == "" || c.Status != status:
			default:
				if i, ok := index[c.Diagnosis]; ok {
					if !slices.Contains(causes[i].Rows, c.Name) {
						causes[i].Rows = append(causes[i].Rows, c.Name)
					}
					continue
				}
				d, _ := driver.LookupDiagnosis(c.Diagnosis)
				index[c.Diagnosis] = len(causes)
				causes = append(causes, Cause{Diagnosis: d, Rows: []string{c.Name}, Status: status})
			}
		}
	}
	return causes
}

// WriteVerdict writes what a check found before its table: a first line that names the first
// cause of its faults with the fix (or says it found none), then, when there are more, every
// cause with its rows, the diagnosed ones with their fix.
func WriteVerdict(w io.Writer, engine string, checks []Result) error {
	causes := Causes(checks)
	var b strings.Builder
	warnings := 0
	for _, c := range checks {
		if c.Status == Warned {
			warnings++
		}
	}
	switch {
	case len(causes) == 0 && warnings == 1:
		fmt.Fprintf(&b, "%s passes check, with a warning (below)\n", engine)
	case len(causes) == 0 && warnings > 1:
		fmt.Fprintf(&b, "%s passes check, with %d warnings (below)\n", engine, warnings)
	case len(causes) == 0:
		fmt.Fprintf(&b, "%s passes check: no fault found\n", engine)
	case causes[0].Status == Failed:
		fmt.Fprintf(&b, "%s fails check: %s\n", engine, causes[0].Headline())
	default:
		fmt.Fprintf(&b, "%s passes check, with a warning: %s\n", engine, causes[0].Headline())
	}
	if len(causes) > 1 {
		fmt.Fprintf(&b, "Faults by their first cause (%d):\n", len(causes))
		for i, c := range causes {
			fmt.Fprintf(&b, "  %d. %s (%s: %s)", i+1, cmp.Or(c.Diagnosis.Fault, c.Rows[0]), c.Status, strings.Join(c.Rows, "; "))
			if c.Diagnosis.ID != "" {
				fmt.Fprintf(&b, ": %s", c.Diagnosis.Fix)
			} else {
				fmt.Fprintf(&b, ": %s", c.Detail)
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
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
