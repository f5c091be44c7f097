package lines

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
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
			parts = append(parts, fmt.Sprintf("%s (%d times)", QuoteText(Cut(lines[i], 100)), n))
		default:
			parts = append(parts, QuoteText(Cut(lines[i], 100)))
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

// QuoteText quotes a player's text as it printed it: between double quotes, with only what
// cannot be read as it is escaped (a quote, a control character, a byte that is not UTF-8).
// A backslash stays one backslash: Go's %q doubles it, and a user reading "bQ bB1\\" is
// told of a character the engine never printed (MoveStrings are full of backslashes).
func QuoteText(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '"':
			b.WriteString(`\"`)
		case unicode.IsPrint(r) || r == ' ':
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}
