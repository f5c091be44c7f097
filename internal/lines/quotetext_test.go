package lines

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
)

func TestQuoteText(t *testing.T) {
	for in, want := range map[string]string{
		`bQ bB1\`:   `"bQ bB1\"`,
		`say "hi"`:  `"say \"hi\""`,
		"a\x00b":    `"a\x00b"`,
		"\xff":      `"\xff"`,
		"tab\there": `"tab\there"`,
		"":          `""`,
	} {
		if got := QuoteText(in); got != want {
			t.Errorf("QuoteText(%q) = %s, want %s", in, got, want)
		}
	}
}

// FuzzQuoteText: a quotation is one line of printable text between quotes, and printable text
// without quotes is quoted as it is, backslashes and all.
func FuzzQuoteText(f *testing.F) {
	for _, s := range []string{`bQ bB1\`, `"`, "\x00\x07 garbage \xff", "é", "\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := QuoteText(s)
		if !strings.HasPrefix(q, `"`) || !strings.HasSuffix(q, `"`) || len(q) < 2 {
			t.Fatalf("QuoteText(%q) = %s: not quoted", s, q)
		}
		for _, r := range q {
			if !unicode.IsPrint(r) && r != ' ' {
				t.Fatalf("QuoteText(%q) = %s holds the unprintable %U", s, q, r)
			}
		}
		if strconv.CanBackquote(s) && !strings.Contains(s, `"`) && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) < 0 {
			if q != `"`+s+`"` {
				t.Errorf("QuoteText(%q) = %s, want it as it is", s, q)
			}
		}
	})
}
