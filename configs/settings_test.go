package configs

import (
	"reflect"
	"strings"
	"testing"
)

// TestRunSettings: the one table of a run's settings is whole: each flag once, each key a
// key of the file whose value a flag can hold, each flag but the multi-word ones with a
// value in Flags, and each spelling normalized and naming one flag.
func TestRunSettings(t *testing.T) {
	flags, spellings := map[string]bool{}, map[string]string{}
	var f Flags
	for _, s := range RunSettings {
		if flags[s.Flag] || s.Flag == "" || s.Usage == "" {
			t.Errorf("-%s: a flag twice, or one without a name or -h text", s.Flag)
		}
		flags[s.Flag] = true
		v := f.Value(s)
		_, takesNothing := v.(func(string) error)
		switch {
		case s.MultiWord && (!takesNothing || s.Key != ""):
			t.Errorf("-%s takes words: it has no value of its own (got %T, key %q)", s.Flag, v, s.Key)
		case !s.MultiWord && (v == nil || takesNothing):
			t.Errorf("-%s: no value in Flags (got %T)", s.Flag, v)
		}
		if s.Key != "" {
			if !fileHasKey(reflect.TypeOf(file{}), s.Key) {
				t.Errorf("-%s sets %q, which is no key of a configuration file", s.Flag, s.Key)
			}
			if got, want := reflect.TypeOf(v).Elem(), reflect.TypeOf(field(reflect.ValueOf(file{}), s.Key).Interface()); got != want {
				t.Errorf("-%s: value %v, the key's %v", s.Flag, got, want)
			}
		}
		for _, sp := range s.Spellings {
			if sp != strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(sp)) || spellings[sp] != "" {
				t.Errorf("-%s: spelling %q is not normalized, or names -%s too", s.Flag, sp, spellings[sp])
			}
			spellings[sp] = s.Flag
		}
	}
	if len(runKeys) == 0 || runKeys["maxplies"] != "max_plies in [adjudication]" || runKeys["rounds"] != "rounds" {
		t.Errorf("the settings users try among an engine's: %v", runKeys)
	}
}

// fileHasKey reports whether the dotted key names a field of t by its TOML tag.
func fileHasKey(t reflect.Type, key string) bool {
	for part := range strings.SplitSeq(key, ".") {
		found := false
		for i := range t.NumField() {
			if t.Field(i).Tag.Get("toml") == part {
				t, found = t.Field(i).Type, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// TestRunSettingOfNoFlag: asking for a setting the table does not hold is a programming
// error, said at once.
func TestRunSettingOfNoFlag(t *testing.T) {
	if s := RunSetting("maxplies"); s.Key != "adjudication.max_plies" {
		t.Errorf("RunSetting(maxplies) = %+v", s)
	}
	defer func() {
		if r := recover(); r == nil {
			t.Error("RunSetting(nosuch) did not panic")
		}
	}()
	RunSetting("nosuch")
}
