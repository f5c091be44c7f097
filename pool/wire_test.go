package pool

import (
	"reflect"
	"strings"
	"testing"
)

// TestParseControl: the words of "server runs" are a control of a run, or a listing.
func TestParseControl(t *testing.T) {
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
