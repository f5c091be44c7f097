package cli

import (
	"io"
	"reflect"
	"slices"
	"strings"
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

// TestSplitMultiWord: a multi-word flag takes the key=value words after it, once per use;
// other words, and every word after "--", stay for the FlagSet.
func TestSplitMultiWord(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		rest   []string
		groups map[string][][]string
	}{
		{"words to the next flag", []string{"-engine", "cmd=a", "name=A", "-rounds", "2"}, []string{"-rounds", "2"},
			map[string][][]string{"engine": {{"cmd=a", "name=A"}}}},
		{"one list per use", []string{"-engine", "cmd=a", "--engine", "cmd=b", "-each", "tc=1+0"}, nil,
			map[string][][]string{"engine": {{"cmd=a"}, {"cmd=b"}}, "each": {{"tc=1+0"}}}},
		{"a word without = ends the words", []string{"-engine", "cmd=a", "g.jsonl"}, []string{"g.jsonl"},
			map[string][][]string{"engine": {{"cmd=a"}}}},
		{"no words", []string{"-engine", "-o", "x"}, []string{"-o", "x"}, map[string][][]string{"engine": {nil}}},
		{"not a multi-word flag", []string{"-o", "a=b"}, []string{"-o", "a=b"}, map[string][][]string{}},
		{"after --", []string{"-engine", "cmd=a", "--", "-engine", "cmd=b"}, []string{"--", "-engine", "cmd=b"},
			map[string][][]string{"engine": {{"cmd=a"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rest, groups := SplitMultiWord(tc.args, "engine", "each")
			if !slices.Equal(rest, tc.rest) || !reflect.DeepEqual(groups, tc.groups) {
				t.Errorf("rest %q, groups %q; want %q, %q", rest, groups, tc.rest, tc.groups)
			}
		})
	}
}

// FuzzParse: whatever the words, Parse sets the flags given and keeps every positional word,
// in order; it never panics.
func FuzzParse(f *testing.F) {
	f.Add("g.jsonl -o r.html -time")
	f.Add("-o -- -time - --title=x -- a")
	f.Add("-x -o")
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		fs := NewFlagSet("p", "c", "c", io.Discard)
		fs.String("o", "", "")
		fs.String("title", "", "")
		fs.Bool("time", false, "")
		flags, positional := splitFlags(fs, args)
		if len(flags)+len(positional) > len(args) {
			t.Fatalf("split %q into %q and %q", args, flags, positional)
		}
		if err := Parse(fs, args); err == nil && !slices.Equal(fs.Args(), positional) {
			t.Errorf("Parse(%q): args %q, want %q", args, fs.Args(), positional)
		}
	})
}
