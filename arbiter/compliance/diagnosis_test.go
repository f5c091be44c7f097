package compliance

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"hivearbiter/arbiter/driver"
)

// nothing is an engine that needs no process.
type nothing struct{}

func (nothing) Close(context.Context) error { return nil }

func newTestSession(t *testing.T, opts Options) *Session[nothing] {
	return NewSession(t.Context(), opts, func(context.Context) (nothing, error) { return nothing{}, nil })
}

// A row whose prerequisite failed, was not checked or did not run is not checked, naming it;
// a row whose prerequisites passed or only warned runs, and its result names them.
func TestNeeds(t *testing.T) {
	s := newTestSession(t, Options{})
	s.Pass("a", "")
	s.Fail("b", "broken")
	s.Warn("c", "odd")
	s.Skip("d", "not checked: -quick")
	for _, tc := range []struct {
		rows []string
		want string // "" when the row may run
	}{
		{[]string{"a", "c"}, ""},
		{[]string{"a", "b"}, NotChecked + "b (which failed)"},
		{[]string{"d"}, NotChecked + "d (which was not checked)"},
		{[]string{"e"}, NotChecked + "e (which did not run)"},
	} {
		ok := s.Needs("row", tc.rows...)
		if ok != (tc.want == "") {
			t.Errorf("Needs(%q) = %v", tc.rows, ok)
			continue
		}
		if ok {
			s.Pass("row", "ran")
		}
		r := s.Results()[len(s.Results())-1]
		if !ok && (r.Status != Skipped || r.Detail != tc.want) || len(r.Needs) != len(tc.rows) {
			t.Errorf("Needs(%q) recorded %+v, want %q", tc.rows, r, tc.want)
		}
	}
}

// The optional rows share one budget: once it is spent, the rows left are not checked, and
// each row is told what is left.
func TestOptionalRowsKeepToTheirBudget(t *testing.T) {
	s := newTestSession(t, Options{OptionalBudget: 100 * time.Millisecond})
	var given []time.Duration
	for _, name := range []string{"one", "two", "three"} {
		s.Optional(name, func(left time.Duration) {
			given = append(given, left)
			time.Sleep(60 * time.Millisecond)
			s.Pass(name, "")
		})
	}
	if len(given) != 2 || given[0] != 100*time.Millisecond || given[1] > 40*time.Millisecond {
		t.Errorf("the rows were given %v of a 100 ms budget", given)
	}
	last := s.Results()[len(s.Results())-1]
	if last.Name != "three" || last.Status != Skipped || !strings.Contains(last.Detail, "time budget of 100ms is spent") {
		t.Errorf("the row past the budget: %+v", last)
	}
	if q := (Options{Quick: true}).withDefaults(); q.OptionalBudget != QuickOptionalBudget || q.Games != 1 || q.Searches != 1 {
		t.Errorf("-quick defaults: %+v", q)
	}
}

// The faults of a check are grouped by their first cause, failures first, and the first line
// of the verdict names the first with its fix.
func TestVerdictNamesTheFirstCause(t *testing.T) {
	checks := []Result{
		{Name: "start and banner", Status: Failed, Diagnosis: driver.DiagnosisBannerOnInfo},
		{Name: "lines before a reply", Status: Warned, Diagnosis: driver.DiagnosisLinesBeforeReply},
		{Name: "bestmove depth 1", Status: Failed, Diagnosis: driver.DiagnosisMissingOK},
		{Name: "bestmove time 00:00:01", Status: Failed, Diagnosis: driver.DiagnosisMissingOK},
		{Name: "newgame Base+M", Status: Failed, Detail: "answered Base;NotStarted;White[1]"},
		{Name: "fractions", Status: Skipped, Detail: NotChecked + "bestmove time 00:00:01 (which failed)"},
	}
	causes := Causes(checks)
	var ids []string
	for _, c := range causes {
		ids = append(ids, c.Diagnosis.ID+"/"+strings.Join(c.Rows, ","))
	}
	want := []string{"banner-on-info/start and banner", "missing-ok/bestmove depth 1,bestmove time 00:00:01",
		"/newgame Base+M", "lines-before-reply/lines before a reply"}
	if strings.Join(ids, "|") != strings.Join(want, "|") {
		t.Errorf("causes %q, want %q", ids, want)
	}
	var b bytes.Buffer
	if err := WriteVerdict(&b, "e", checks); err != nil {
		t.Fatal(err)
	}
	d, _ := driver.LookupDiagnosis(driver.DiagnosisBannerOnInfo)
	first, _, _ := strings.Cut(b.String(), "\n")
	if first != "e fails check: "+d.Headline() || !strings.Contains(first, d.Fix) {
		t.Errorf("first line %q", first)
	}
	if !strings.Contains(b.String(), "Faults by their first cause (4):") {
		t.Errorf("verdict:\n%s", b.String())
	}
	for _, tc := range []struct {
		checks []Result
		want   string
	}{
		{[]Result{{Status: Passed}}, "e passes check: no fault found\n"},
		{[]Result{{Status: Passed}, {Status: Warned}, {Status: Warned}}, "e passes check, with 2 warnings (below)\n"},
	} {
		b.Reset()
		if WriteVerdict(&b, "e", tc.checks); b.String() != tc.want {
			t.Errorf("verdict %q, want %q", b.String(), tc.want)
		}
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
		want  string
	}{
		{"a b c", 0, "a b c"},
		{"it printed its reply but no ok", 12, "it printed\nits reply\nbut no ok"},
		{"abcdefghij xy", 4, "abcd\nefgh\nij\nxy"},
	} {
		if got := Wrap(tc.text, tc.width); got != tc.want {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
		}
	}
}

// FuzzWrap: wrapping loses and adds no word, and no line is wider than asked but for a word
// that is.
func FuzzWrap(f *testing.F) {
	f.Add("it printed its reply, \"wS1\", but no ok after it", 12)
	f.Add("abcdefghij xy", 4)
	f.Fuzz(func(t *testing.T, text string, width int) {
		width = width%200 + 1
		if width < 1 {
			width = -width + 1
		}
		got := Wrap(text, width)
		long := utf8.RuneCountInString(text) > width
		if long && strings.Join(strings.Fields(got), "") != strings.Join(strings.Fields(text), "") {
			t.Errorf("Wrap(%q, %d) = %q: the words differ", text, width, got)
		}
		for _, line := range strings.Split(got, "\n") {
			if utf8.RuneCountInString(line) > width && long {
				t.Errorf("Wrap(%q, %d): line %q is too wide", text, width, line)
			}
		}
	})
}
