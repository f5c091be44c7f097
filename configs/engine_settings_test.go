package configs

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestEngineSettingsCoverTheFile: the words and the file's engine table say the same settings.
// Every key of an [[engine]] table is the Key of a word, but the tables of their own (options,
// settings) and the protocol's setting that the file spells fractional_seconds (and
// fractional), which ParseEngine reads as a protocol's setting; every word's Key is a key of
// the table; no word is listed twice.
func TestEngineSettingsCoverTheFile(t *testing.T) {
	own := []string{"options", "settings", "fractional_seconds", "fractional"}
	var keys []string
	typ := reflect.TypeFor[engine]()
	for i := range typ.NumField() {
		if tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("toml"), ","); tag != "" {
			keys = append(keys, tag)
		}
	}
	if len(keys) < 10 {
		t.Fatalf("the engine table has %d keys: %v", len(keys), keys)
	}
	covered := map[string]bool{}
	seen := map[string]bool{}
	for _, s := range EngineSettings {
		if seen[s.Word] {
			t.Errorf("the word %s is listed twice", s.Word)
		}
		seen[s.Word] = true
		if !slices.Contains(keys, s.Key) {
			t.Errorf("the word %s names the engine table's key %q, which the table does not have (its keys: %v)", s.Word, s.Key, keys)
		}
		if s.set == nil {
			t.Errorf("the word %s sets nothing", s.Word)
		}
		covered[s.Key] = true
	}
	for _, k := range keys {
		if !covered[k] && !slices.Contains(own, k) {
			t.Errorf("the engine table's key %q has no word in EngineSettings", k)
		}
	}
}

// TestEngineSettingsRead: each word read by ParseEngine lands where its file key would.
func TestEngineSettingsRead(t *testing.T) {
	tests := []struct {
		words []string
		check func(e engine) bool
	}{
		{[]string{"cmd=./e"}, func(e engine) bool { return e.Cmd == "./e" }},
		{[]string{"arg=-a", "args=-b \"c d\""}, func(e engine) bool { return slices.Equal(e.Args, []string{"-a", "-b", "c d"}) }},
		{[]string{"st=2"}, func(e engine) bool { return e.TC == "st=2" }},
		{[]string{"depth=3"}, func(e engine) bool { return e.TC == "depth=3" }},
		{[]string{"timemargin=250"}, func(e engine) bool { return e.Margin == 0.25 }},
		{[]string{"margin=1.5"}, func(e engine) bool { return e.Margin == 1.5 }},
		{[]string{"restart=on"}, func(e engine) bool { return e.Restart != nil && bool(*e.Restart) }},
		{[]string{"env=A=1", "env=B=2"}, func(e engine) bool { return slices.Equal(e.Env, []string{"A=1", "B=2"}) }},
	}
	for _, tc := range tests {
		var e engine
		for _, w := range tc.words {
			k, v, _ := strings.Cut(w, "=")
			s, ok := engineSettingByWord[k]
			if !ok {
				t.Fatalf("%s: no such word", k)
			}
			if err := s.set(&e, v, w); err != nil {
				t.Fatalf("%v: %v", tc.words, err)
			}
		}
		if !tc.check(e) {
			t.Errorf("%v read as %+v", tc.words, e)
		}
	}
	for _, bad := range []string{"margin=-1", "timemargin=0.5", "restart=maybe", "args=\"open"} {
		k, v, _ := strings.Cut(bad, "=")
		if err := engineSettingByWord[k].set(new(engine), v, bad); err == nil {
			t.Errorf("%s: read without an error", bad)
		}
	}
}
