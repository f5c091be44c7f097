package main

import (
	"strings"
	"testing"

	"hivearbiter/arbiter/compliance"
	"hivearbiter/configs"
)

// TestWriteCheckAdvice: arbiter check's advice gives the rows that found a setting whole, the
// warnings, and a match command that plays the engine with those settings; after a failed
// check, no command.
func TestWriteCheckAdvice(t *testing.T) {
	e, err := configs.ParseEngine([]string{"cmd=./my engine", "st=1"}, builtinResolver)
	if err != nil {
		t.Fatal(err)
	}
	checks := []compliance.Result{
		{Name: "banner", Status: compliance.Passed, Detail: "id my engine 1.0"},
		{Name: "fractional seconds", Status: compliance.Passed, Detail: "it rounds times down to whole seconds", Settings: []string{"fractional=false"}},
		{Name: "determinism", Status: compliance.Warned, Detail: "answers differ from search to search"},
	}
	var b strings.Builder
	writeCheckAdvice(&b, e, checks, false, builtinResolver)
	for _, want := range []string{
		"\nfractional seconds: it rounds times down to whole seconds\n",
		"Warnings (a match does not meet them; the engine's author may want to know):\n  determinism: answers differ from search to search\n",
		"To play it against the bundled engine, run:\n  arbiter match -engine 'cmd=./my engine' st=1 fractional=false -engine builtin=hivebot st=1\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the advice lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	writeCheckAdvice(&b, e, checks, true, builtinResolver)
	if !strings.Contains(b.String(), "A failed row is a fault a match meets") || strings.Contains(b.String(), "arbiter match") {
		t.Errorf("after a failed check:\n%s", b.String())
	}
}
