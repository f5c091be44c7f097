package cli

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

var quoteTests = []struct {
	args []string
	want string
}{
	{[]string{"-engine", "cmd=./e", "name=a", "tc=10+0.1", "option.Hash=64"}, "-engine cmd=./e name=a tc=10+0.1 option.Hash=64"},
	{[]string{"-out", "my games.jsonl"}, "-out 'my games.jsonl'"},
	{[]string{"-event", "it's"}, `-event 'it'"'"'s'`},
	{[]string{""}, "''"},
	{[]string{"a;b", "$x", "*", "{a,b}", "!1", "#c", "~", "[x]"}, "'a;b' '$x' '*' '{a,b}' '!1' '#c' '~' '[x]'"},
	{[]string{"=ls", "a=b", "été"}, "'=ls' a=b 'été'"},
}

func TestQuoteArgs(t *testing.T) {
	for _, tc := range quoteTests {
		if got := QuoteArgs(tc.args); got != tc.want {
			t.Errorf("QuoteArgs(%q) = %s, want %s", tc.args, got, tc.want)
		}
	}
}

// TestQuoteReadBack: each shell at hand reads the quoted words back as they were.
func TestQuoteReadBack(t *testing.T) {
	for _, shell := range []string{"sh", "bash", "zsh", "fish"} {
		path, err := exec.LookPath(shell)
		if err != nil {
			continue
		}
		for _, tc := range quoteTests {
			out, err := exec.Command(path, "-c", "printf '%s\\n' "+QuoteArgs(tc.args)).Output()
			if err != nil {
				t.Fatalf("%s: %v", shell, err)
			}
			if got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"); !slices.Equal(got, tc.args) {
				t.Errorf("%s read %q back as %q", shell, tc.args, got)
			}
		}
	}
}
