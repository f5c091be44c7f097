package cli

import (
	"io"
	"slices"
	"testing"
)

// TestParseFlags: flags may come before, between or after positional arguments; "--" ends
// the flags; a flag's value is taken whatever it looks like.
func TestParseFlags(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		out, title string
		time       bool
		positional []string
		err        string
	}{
		{"flags first", []string{"-o", "r.html", "g.jsonl"}, "r.html", "", false, []string{"g.jsonl"}, ""},
		{"flags last", []string{"g.jsonl", "-o", "r.html"}, "r.html", "", false, []string{"g.jsonl"}, ""},
		{"flags between", []string{"a.jsonl", "-time", "b.jsonl", "-o=r.html"}, "r.html", "", true, []string{"a.jsonl", "b.jsonl"}, ""},
		{"double dash", []string{"g.jsonl", "--o", "r.html"}, "r.html", "", false, []string{"g.jsonl"}, ""},
		{"end of flags", []string{"-o", "r.html", "--", "-g.jsonl", "-time"}, "r.html", "", false, []string{"-g.jsonl", "-time"}, ""},
		{"a value that looks like a flag", []string{"g.jsonl", "-title", "-time", "-time"}, "", "-time", true, []string{"g.jsonl"}, ""},
		{"standard input", []string{"-", "-time"}, "", "", true, []string{"-"}, ""},
		{"a bool flag takes no value", []string{"-time", "g.jsonl"}, "", "", true, []string{"g.jsonl"}, ""},
		{"unknown flag after a file", []string{"g.jsonl", "-x"}, "", "", false, nil, "unknown flag -x; arbiter t -h lists the flags"},
		{"missing value", []string{"g.jsonl", "-o"}, "", "", false, nil, "-o needs a value; arbiter t -h lists the flags"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := NewFlagSet("arbiter", "t", "t", io.Discard)
			out := fs.String("o", "", "")
			title := fs.String("title", "", "")
			timeTable := fs.Bool("time", false, "")
			err := Parse(fs, tc.args)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if *out != tc.out || *title != tc.title || *timeTable != tc.time || !slices.Equal(fs.Args(), tc.positional) {
				t.Errorf("-o %q -title %q -time %v, args %q; want %q %q %v %q", *out, *title, *timeTable, fs.Args(), tc.out, tc.title, tc.time, tc.positional)
			}
		})
	}
}

