package cli

import (
	"flag"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBind: a bound flag sets the field it points to, the field's value is the flag's
// default as -h prints it, Given names the flags set, and a repeatable flag keeps every value.
func TestBind(t *testing.T) {
	settings := struct {
		S       string
		B       bool
		I       int
		I64     int64
		F       float64
		D       time.Duration
		List    []string
		Skipped string
	}{S: "x", I: 4, D: time.Minute, Skipped: "kept"}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	var help strings.Builder
	fs.SetOutput(&help)
	Bind(fs, "s", &settings.S, "a string")
	Bind(fs, "b", &settings.B, "a bool")
	Bind(fs, "i", &settings.I, "an int")
	Bind(fs, "i64", &settings.I64, "an int64")
	Bind(fs, "f", &settings.F, "a float")
	Bind(fs, "d", &settings.D, "a duration")
	Bind(fs, "list", Append(&settings.List), "repeatable")
	Bind(fs, "engine", Words, "multi-word")
	Bind(fs, "skipped", &settings.Skipped, "not given")
	fs.PrintDefaults()
	for _, want := range []string{"a string (default \"x\")", "an int (default 4)", "a duration (default 1m0s)"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("-h text %q lacks %q", help.String(), want)
		}
	}
	args := []string{"-s", "y", "-b", "-i", "5", "-i64", "6", "-f", "0.5", "-d", "2s", "-list", "a", "-list", "b", "-engine", "e"}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if settings.S != "y" || !settings.B || settings.I != 5 || settings.I64 != 6 || settings.F != 0.5 || settings.D != 2*time.Second ||
		!slices.Equal(settings.List, []string{"a", "b"}) || settings.Skipped != "kept" {
		t.Errorf("settings %+v after %q", settings, args)
	}
	want := map[string]bool{"s": true, "b": true, "i": true, "i64": true, "f": true, "d": true, "list": true, "engine": true}
	if got := Given(fs); !reflect.DeepEqual(got, want) {
		t.Errorf("Given %v, want %v", got, want)
	}
}

// TestBindRefusesOtherTypes: a setting Bind cannot set is a programming error, said at once.
func TestBindRefusesOtherTypes(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "-u: a setting of type *uint") {
			t.Errorf("recovered %v, want a panic naming -u and *uint", r)
		}
	}()
	var u uint
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	Bind(fs, "u", &u, "")
}
