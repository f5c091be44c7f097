package render

import (
	"fmt"
	"io"

	"hivearbiter/results"
)

// WriteTimeTable writes one row per engine: moves, average and longest thinking time per move,
// overruns forgiven within the margin, and games lost by misbehaving.
func WriteTimeTable(w io.Writer, ts *results.Timings) error {
	table := NewTable("Engine", "Moves", "Avg/move", "Max/move", "Overruns", "Faults")
	for _, t := range ts.Engines {
		table.Append(t.Name, fmt.Sprint(t.Moves), seconds3(t.MeanMillis()), seconds3(float64(t.MillisMax)),
			fmt.Sprint(t.Overruns), fmt.Sprint(t.Faults))
	}
	if err := table.WriteText(w); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "Times in seconds; overruns: moves over budget but within the margin (forgiven).")
	return err
}

func seconds3(ms float64) string { return fmt.Sprintf("%.3f s", ms/1000) }
