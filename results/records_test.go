package results

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/elo"
	"hivearbiter/internal/testkit/golden"
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

// TestWarningCounts: warnings are counted by the engine they name in their Engine field, not
// by searching their text for "(name)": an engine whose name is in another's text, and a
// warning of an older record that names no engine, are not miscounted.
func TestWarningCounts(t *testing.T) {
	recs := []Record{
		{White: Player{Name: "a"}, Black: Player{Name: "b"}, Warnings: []Warning{
			{Side: "Black", Engine: "b", Text: "Black (b): says the game is over, as (a) did"},
			{Side: "White", Engine: "a", Text: "White (a): its budget was rounded"},
		}},
		{White: Player{Name: "b"}, Black: Player{Name: "a"}, Warnings: []Warning{
			{Side: "White", Engine: "b", Text: "White (b): its budget was rounded"},
			{Text: "Black (a): from an older record"},
		}},
	}
	if got, want := WarningCounts(recs), "Warnings in the records (anomalies that decided no game): a 1, b 2"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := WarningCounts(recs[:0]); got != "" {
		t.Errorf("no warnings: got %q", got)
	}
}

// TestWriteStats: the tables of arbiter stats for a records file, with an SPRT and the time
// table, against a golden file.
func TestWriteStats(t *testing.T) {
	recs, err := ReadFile(filepath.Join("..", "report", "testdata", "hivebot.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	test := elo.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: elo.Normalized}
	var b bytes.Buffer
	summary, err := WriteStats(&b, recs, StatsOptions{Files: 1, SPRT: &test, Time: true})
	if err != nil {
		t.Fatal(err)
	}
	if summary.SPRT == nil || summary.SPRT.Pairs != 10 {
		t.Errorf("summary SPRT %+v, want one of 10 pairs", summary.SPRT)
	}
	golden.Check(t, filepath.Join("testdata", "stats.txt"), b.Bytes())
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

// TestWriteSPRTVerdict: the verdict of records' SPRT is said in the words of a match's last
// lines, each decision, with what it says of the engines.
func TestWriteSPRTVerdict(t *testing.T) {
	test := elo.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: elo.Normalized}
	for _, tc := range []struct {
		llr  float64
		want elo.Decision
		line string
	}{
		{3, elo.AcceptH1, "SPRT ([0.00, 10.00], normalized) completed - H1 was accepted after 12 game pairs\nH1 accepted: "},
		{-3, elo.AcceptH0, "SPRT ([0.00, 10.00], normalized) completed - H0 was accepted after 12 game pairs\nH0 accepted: "},
		{0.5, elo.Continue, "SPRT ([0.00, 10.00], normalized) has no decision yet after 12 game pairs\nno decision yet: "},
	} {
		var b strings.Builder
		s := &Summary{SPRT: &SPRTSummary{LLR: tc.llr, Pairs: 12}, Pairings: []PairingSummary{{First: "new", Second: "old"}}}
		if d := WriteSPRTVerdict(&b, test, s); d != tc.want || !strings.HasPrefix(b.String(), tc.line) || !strings.Contains(b.String(), "new") {
			t.Errorf("LLR %g: %v\n%s", tc.llr, d, b.String())
		}
	}
}
