package pool

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestParseControl: the words of "server runs" are a control of a run, or a listing.
func TestParseControl(t *testing.T) {
	t.Parallel()
	tests := []struct {
		words []string
		want  *Control
		err   string
	}{
		{nil, nil, ""},
		{[]string{"pause", "r1"}, &Control{Action: "pause", ID: "r1"}, ""},
		{[]string{"delete", "r1"}, &Control{Action: "delete", ID: "r1"}, ""},
		{[]string{"priority", "r1", "3"}, &Control{Action: "priority", ID: "r1", Priority: 3, Share: 0.5}, ""},
		{[]string{"exclude", "r1", "w2"}, &Control{Action: "exclude", ID: "r1", Worker: "w2"}, ""},
		{[]string{"exclude", "r1"}, nil, "want: server runs exclude RUN WORKER"},
		{[]string{"exclude", "r1", "w2", "w3"}, nil, "want: server runs exclude RUN WORKER"},
		{[]string{"stop"}, nil, "want: server runs stop RUN"},
		{[]string{"priority", "r1"}, nil, "want: server runs priority RUN N"},
		{[]string{"priority", "r1", "high"}, nil, `priority "high" is not a whole number`},
		{[]string{"restart", "r1"}, nil, `unknown runs command "restart"`},
	}
	for _, tc := range tests {
		got, err := ParseControl(tc.words, 0.5)
		if !reflect.DeepEqual(got, tc.want) || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: %+v, %v; want %+v, %q", tc.words, got, err, tc.want, tc.err)
		}
	}
}

// FuzzParseControl: any words are a control whose action is one of the pool's, of the run the
// second word names (an exclusion of the worker the third names), or a listing, or an error;
// never a panic.
func FuzzParseControl(f *testing.F) {
	for _, seed := range []string{"pause r1", "priority r1 3", "exclude r1 w2", "exclude r1", "approve", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words := strings.Fields(line)
		c, err := ParseControl(words, 0)
		switch {
		case err != nil:
			if c != nil {
				t.Errorf("%q: a control %+v with the error %v", words, c, err)
			}
		case c == nil:
			if len(words) != 0 {
				t.Errorf("%q: no control and no error", words)
			}
		case c.ID != words[1]:
			t.Errorf("%q: control of run %q", words, c.ID)
		case c.Action == "exclude" && (len(words) != 3 || c.Worker != words[2]):
			t.Errorf("%q: exclusion of worker %q", words, c.Worker)
		case !slices.Contains([]string{"approve", "pause", "resume", "stop", "delete", "priority", "exclude"}, c.Action):
			t.Errorf("%q: unknown action %q", words, c.Action)
		}
	})
}
