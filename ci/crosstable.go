package ci

import (
	"fmt"
	"strings"

	"hivearbiter/results"
	"hivearbiter/results/render"
)

// writeCrossTable writes who beat whom among three or more engines, the console's cross table
// (render.WriteCrossTable), and nothing for fewer.
func writeCrossTable(b *strings.Builder, s *results.Summary) {
	if s == nil || len(s.Engines) < 3 {
		return
	}
	fmt.Fprintf(b, "**Cross table:** %s.\n\n", render.CrossTableCaption)
	render.MarkdownCrossTable(s.CrossTable(), cell).WriteMarkdown(b)
	b.WriteString("\n")
}
