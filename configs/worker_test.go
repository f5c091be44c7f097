package configs

import "testing"

// TestWorkerEngine: what a worker's -engine words do not give stays unset, to be the
// run's; what they give is kept, to be compared with the run's.
func TestWorkerEngine(t *testing.T) {
	resolve := func(name string) ([]string, error) { return []string{"/bin/arbiter", name}, nil }
	for _, tc := range []struct {
		words    []string
		time     string
		settings map[string]string
		options  int
	}{
		{[]string{"name=old", "cmd=hivebot", "arg=-profile", "arg=medium"}, "", nil, 0},
		{[]string{"name=old", "builtin=hivebot"}, "", nil, 0}, // builtin's fractional=true is a default
		{[]string{"name=old", "builtin=hivebot", "fractional=true", "st=2"}, "st=2", map[string]string{"fractional": "true"}, 0},
		{[]string{"name=old cmd=hivebot tc=10+0.1"}, "10+0.1", nil, 0}, // a whole specification in one word
		{[]string{"name=old", "cmd=hivebot", "option.Threads=2"}, "", nil, 1},
	} {
		e, err := WorkerEngine(tc.words, resolve)
		if err != nil {
			t.Errorf("%q: %v", tc.words, err)
			continue
		}
		gotTime := ""
		if !e.Time.IsZero() {
			gotTime = e.Time.String()
		}
		if gotTime != tc.time || len(e.Settings) != len(tc.settings) || len(e.Options) != tc.options {
			t.Errorf("%q: time %q, settings %v, %d options; want %q, %v, %d", tc.words, gotTime, e.Settings, len(e.Options), tc.time, tc.settings, tc.options)
		}
		for k, v := range tc.settings {
			if e.Settings[k] != v {
				t.Errorf("%q: %s=%q, want %q", tc.words, k, e.Settings[k], v)
			}
		}
	}
}

// TestWorkerEngines: every -each's words apply to each -engine, whose own words win; an
// engine the words cannot make is refused.
func TestWorkerEngines(t *testing.T) {
	resolve := func(name string) ([]string, error) { return []string{"/bin/arbiter", name}, nil }
	each := [][]string{{"dir=/opt"}, {"st=2"}}
	engines, err := WorkerEngines(each, [][]string{{"name=a", "cmd=a"}, {"name=b", "cmd=b", "st=3"}}, resolve)
	if err != nil {
		t.Fatal(err)
	}
	if len(engines) != 2 || engines[0].Dir != "/opt" || engines[1].Dir != "/opt" ||
		engines[0].Time.String() != "st=2" || engines[1].Time.String() != "st=3" {
		t.Errorf("engines %+v", engines)
	}
	if _, err := WorkerEngines(nil, [][]string{{"name=a", "cmd=a", "bogus"}}, resolve); err == nil {
		t.Error("a word that is no setting was taken")
	}
}
