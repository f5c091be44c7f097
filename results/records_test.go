package results

import (
	"encoding/json"
	"testing"
)

// TestWarningJSON: a warning is written with its side and engine, and read back; a warning of
// an older record, its text alone, is read with no engine.
func TestWarningJSON(t *testing.T) {
	w := Warning{Side: "White", Engine: "dev (1)", Text: "White (dev (1)): its budget was rounded"}
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"side":"White","engine":"dev (1)","text":"White (dev (1)): its budget was rounded"}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
	for _, tc := range []struct {
		json string
		want Warning
	}{
		{string(b), w},
		{`"White (a): old"`, Warning{Text: "White (a): old"}},
	} {
		var got Warning
		if err := json.Unmarshal([]byte(tc.json), &got); err != nil || got != tc.want {
			t.Errorf("%s: got %+v, %v; want %+v", tc.json, got, err, tc.want)
		}
	}
}

// FuzzParseCounts: any text gives n non-negative counts or an error, never a panic.
func FuzzParseCounts(f *testing.F) {
	for _, s := range []string{"1,2,3,4,5", "0,0,0", " 7 , 8,9", "1,,2", "-1,2,3", "a,b,c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, n := range []int{3, 5} {
			counts, err := ParseCounts(s, n)
			if err != nil {
				continue
			}
			if len(counts) != n {
				t.Fatalf("%q: %d counts, want %d", s, len(counts), n)
			}
			for _, c := range counts {
				if c < 0 {
					t.Fatalf("%q: negative count %d", s, c)
				}
			}
		}
	})
}
