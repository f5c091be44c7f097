package configs

import (
	"reflect"
	"testing"
)

// EngineWords is ParseEngine's inverse: the words it writes parse into the engine they were
// written from, the bundled engine as builtin=hivebot (not the arbiter's own binary).
func TestEngineWordsParseBack(t *testing.T) {
	for _, words := range [][]string{
		{"cmd=./dev", "arg=--uhp", "name=dev", "st=1", "margin=0.6", "fractional=false", "interrupt=false", "option.NumThreads=1"},
		{"builtin=hivebot", "arg=-profile", "arg=weak", "tc=10+0.1", "option.Threads=1"},
		{"builtin=hivebot", "depth=3", "name=hivebot"},
		{"cmd=./bot", "arg=bot.py", "proto=uhp", "dir=/opt/bot", "env=A=1", "depth=4", "restart=on", "timemargin=250"},
	} {
		e, err := ParseEngine(words, fakeResolver)
		if err != nil {
			t.Fatalf("%q: %v", words, err)
		}
		written := EngineWords(e, fakeResolver)
		again, err := ParseEngine(written, fakeResolver)
		if err != nil {
			t.Fatalf("%q written as %q: %v", words, written, err)
		}
		if !reflect.DeepEqual(e, again) {
			t.Errorf("%q written as %q parses to\n%+v, want\n%+v", words, written, again, e)
		}
		if e.Builtin != "" && written[0] != "builtin="+e.Builtin {
			t.Errorf("the bundled engine is written %q", written)
		}
	}
}

// The line a check prints replaces the engine's settings with those found, keeps its limit,
// and drops its name, so that it can be given for two builds.
func TestCheckedEngineWords(t *testing.T) {
	e, err := ParseEngine([]string{"cmd=./dev/engine", "name=dev", "st=1", "fractional=true", "option.Hash=64"}, fakeResolver)
	if err != nil {
		t.Fatal(err)
	}
	got, err := CheckedEngineWords(e, []string{"fractional=false", "interrupt=false", "margin=0.6", "option.NumThreads=1"}, fakeResolver)
	want := []string{"cmd=./dev/engine", "st=1", "margin=0.6", "fractional=false", "interrupt=false", "option.Hash=64", "option.NumThreads=1"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("CheckedEngineWords = %q, %v; want %q", got, err, want)
	}
	match, err := CheckedMatch(e, []string{"margin=0.6"}, []string{"-repetitions=3"}, fakeResolver)
	want = []string{"-engine", "cmd=./dev/engine", "st=1", "margin=0.6", "fractional=true", "option.Hash=64",
		"-engine", "builtin=hivebot", "st=1", "-repetitions=3"}
	if err != nil || !reflect.DeepEqual(match, want) {
		t.Errorf("CheckedMatch = %q, %v; want %q", match, err, want)
	}
}
