package results

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"hivearbiter/elo"
)

// TestRecordsTest: the test the records carry is the one every record that has one agrees on;
// records of older arbiters (none) give none, and two runs of different tests give a
// *TestsDifferError naming both.
func TestRecordsTest(t *testing.T) {
	gain := NewTest(elo.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: elo.Normalized}, 20000)
	gate := NewTest(elo.SPRT{Elo0: -5, Elo1: 0, Alpha: 0.05, Beta: 0.1, Model: elo.Logistic}, 400)
	for _, tc := range []struct {
		name  string
		tests []*Test
		want  *Test
		err   bool
	}{
		{"none", []*Test{nil, nil}, nil, false},
		{"one", []*Test{gain, gain}, gain, false},
		{"older records beside", []*Test{nil, gain, nil}, gain, false},
		{"two", []*Test{gain, gate}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs := make([]Record, len(tc.tests))
			for i, test := range tc.tests {
				recs[i] = Record{Game: i, Test: test}
			}
			got, err := RecordsTest(recs)
			var differ *TestsDifferError
			if tc.err {
				if !errors.As(err, &differ) || len(differ.Tests) != 2 {
					t.Fatalf("%v, %v: want a *TestsDifferError of both tests", got, err)
				}
				if msg := err.Error(); !strings.Contains(msg, "elo0=-5 elo1=0 alpha=0.05 beta=0.1 model=logistic, at most 400 games") {
					t.Errorf("%q does not name the gate's test", msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("%v, want %v", got, tc.want)
			}
		})
	}
}

// TestRecordTestRoundTrip: a record's test survives JSON, and becomes the elo.SPRT it was made
// from; one whose model is unknown, or whose bounds are no test, says so.
func TestRecordTestRoundTrip(t *testing.T) {
	sprt := elo.SPRT{Elo0: -3, Elo1: 1, Alpha: 0.05, Beta: 0.05, Model: elo.Logistic}
	b, err := json.Marshal(Record{Test: NewTest(sprt, 1000)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"test":{"elo0":-3,"elo1":1,"alpha":0.05,"beta":0.05,"model":"logistic","max_games":1000}`) {
		t.Errorf("the record's test as JSON: %s", b)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Test.SPRT(); err != nil || got != sprt {
		t.Errorf("%+v, %v: want %+v", got, err, sprt)
	}
	if _, err := (Test{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: "bogus"}).SPRT(); err == nil {
		t.Error("a test of an unknown model was taken")
	}
	if _, err := (Test{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05, Model: "normalized"}).SPRT(); err == nil {
		t.Error("a test with elo0 above elo1 was taken")
	}
	// A record of an older arbiter has no test.
	var older Record
	if err := json.Unmarshal([]byte(`{"schema":1,"run":"r","game":0}`), &older); err != nil || older.Test != nil {
		t.Errorf("an older record: %v, test %v", err, older.Test)
	}
}
