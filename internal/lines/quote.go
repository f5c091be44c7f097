package lines

import (
	"fmt"
	"strings"
)

// Quote quotes the first lines a player printed, each cut, so that garbage is shown as it is
// without flooding a message; a line repeated is shown once, with its count.
func Quote(lines []string) string {
	const shown = 4
	var parts []string
	rest := 0
	for i := 0; i < len(lines); {
		n := 1
		for i+n < len(lines) && lines[i+n] == lines[i] {
			n++
		}
		switch {
		case len(parts) == shown:
			rest += n
		case n > 1:
			parts = append(parts, fmt.Sprintf("%q (%d times)", Cut(lines[i], 100), n))
		default:
			parts = append(parts, fmt.Sprintf("%q", Cut(lines[i], 100)))
		}
		i += n
	}
	s := strings.Join(parts, " | ")
	if rest > 0 {
		s += fmt.Sprintf(" and %d more lines", rest)
	}
	return s
}

// Printed says what a player printed, quoted and cut: "it printed nothing" or "it printed"
// and the lines.
func Printed(lines []string) string {
	if len(lines) == 0 {
		return "it printed nothing"
	}
	return "it printed " + Quote(lines)
}

// Cut cuts s to n bytes, marking the cut with "...".
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
