package arbiter_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/openings"
)

// TestNormalizeReportsEveryProblem: a configuration with several mistakes gets all of them at
// once, each a ConfigError, so that a user fixes them in one go.
func TestNormalizeReportsEveryProblem(t *testing.T) {
	a, b := engine("a", "random"), engine("a", "random")
	b.Time = driver.TimeControl{}
	cfg := baseConfig(a, b)
	cfg.GameType = "Chess"
	cfg.SPRT = &arbiter.SPRTConfig{Elo0: 5, Elo1: 0, Model: "bayes"}
	err := cfg.Normalize()
	var ce *driver.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want ConfigErrors", err)
	}
	for _, want := range []string{`game type "Chess"`, `two engines are named "a"`, `engine "a" has no time control`, `SPRT model "bayes"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
}

// Engines without a name keep their program's file name when it is theirs alone; two builds of
// one engine (a gate's) are told apart by their directories, and the bundled engine is hivebot.
func TestDefaultNames(t *testing.T) {
	cmd := func(program string) driver.EngineConfig {
		return driver.EngineConfig{Command: []string{program, "--uhp"}}
	}
	bundled := driver.EngineConfig{Command: []string{"/usr/bin/arbiter", "hivebot"}, Builtin: "hivebot"}
	inDir := func(dir string) driver.EngineConfig {
		return driver.EngineConfig{Command: []string{"./engine"}, Dir: dir}
	}
	named := func(e driver.EngineConfig, name string) driver.EngineConfig { e.Name = name; return e }
	tests := []struct {
		engines []driver.EngineConfig
		want    []string
	}{
		{[]driver.EngineConfig{cmd("./x/alpha"), cmd("/y/beta")}, []string{"alpha", "beta"}},
		{[]driver.EngineConfig{cmd("./base/nokamute"), cmd("./dev/nokamute")}, []string{"base/nokamute", "dev/nokamute"}},
		{[]driver.EngineConfig{cmd("/a/bin/e"), cmd("/b/bin/e"), cmd("/c/other")}, []string{"a/bin/e", "b/bin/e", "other"}},
		{[]driver.EngineConfig{inDir("/opt/a"), inDir("/opt/b")}, []string{"a/engine", "b/engine"}},
		{[]driver.EngineConfig{named(cmd("/opt/nokamute"), "nokamute"), cmd("./dev/nokamute")}, []string{"nokamute", "dev/nokamute"}},
		{[]driver.EngineConfig{bundled, cmd("./mine")}, []string{"hivebot", "mine"}},
		{[]driver.EngineConfig{bundled, bundled}, []string{"hivebot", "hivebot-2"}},
		{[]driver.EngineConfig{cmd("./e"), cmd("./e")}, []string{"e", "e-2"}},
		{[]driver.EngineConfig{{Addr: "localhost:4000"}, named(bundled, "b")}, []string{"localhost:4000", "b"}},
	}
	for _, tt := range tests {
		driver.DefaultNames(tt.engines)
		var got []string
		for _, e := range tt.engines {
			got = append(got, e.Name)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("names %q, want %q", got, tt.want)
		}
	}
}

// TestOpeningsBookFingerprint: a run of a book has the id of a run of the same text as a
// file, and a description that names the book.
func TestOpeningsBookFingerprint(t *testing.T) {
	data, err := openings.ReadBook("base")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "base.txt")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c := arbiter.Config{GameType: "Base", Openings: openings.Config{Book: "base"}}
	f := arbiter.Config{GameType: "Base", Openings: openings.Config{File: path}}
	r := arbiter.Config{GameType: "Base", Openings: openings.Config{RandomPlies: 4}}
	book, _ := c.Fingerprint()
	file, _ := f.Fingerprint()
	random, _ := r.Fingerprint()
	if book == "" || book != file || book == random {
		t.Errorf("fingerprints: book %q, file %q, random %q", book, file, random)
	}
	if d := c.Openings.Words(); d != "book=base" {
		t.Errorf("described as %q", d)
	}
	if d := c.Openings.Description(); d != "book base" {
		t.Errorf("result block says %q", d)
	}
}
