package configs

import (
	"strings"
	"testing"
)

// TestOpeningsBookFlag: -openings book=NAME names a shipped book and no random plies; with
// file= or plies= it is refused.
func TestOpeningsBookFlag(t *testing.T) {
	for _, tc := range []struct {
		words []string
		err   string
	}{
		{[]string{"book=base+mlp", "order=random"}, ""},
		{[]string{"book=base", "plies=4"}, "book excludes file and plies"},
		{[]string{"book=base", "file=x.txt"}, "book excludes file and plies"},
	} {
		var fl Flags
		groups := map[string][][]string{
			"engine":   {{"cmd=a"}, {"cmd=b"}},
			"each":     {{"st=1"}},
			"openings": {tc.words},
		}
		r, err := fl.Run(groups, fakeResolver)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := r.Config(fakeResolver)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.words, err, tc.err)
			}
			continue
		}
		if err != nil || cfg.Openings.Book != "base+mlp" || cfg.Openings.RandomPlies != 0 || cfg.Openings.Order != "random" {
			t.Errorf("%q: %v, openings %+v", tc.words, err, cfg.Openings)
		}
	}
}
