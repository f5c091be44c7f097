package driver

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCreateTranscript(t *testing.T) {
	none, err := (StartEnv{}).CreateTranscript("e")
	if none != nil || err != nil {
		t.Errorf("no transcript dir: got %v, %v, want nothing", none, err)
	}
	// No transcript is still a transcript to its player: no writer (a nil interface), no
	// name, and a close that does nothing.
	if w, name, cerr := none.Writer(), none.Name(), none.Close(); w != nil || name != "" || cerr != nil {
		t.Errorf("no transcript: writer %v, name %q, close %v; want nil, \"\", nil", w, name, cerr)
	}
	dir := filepath.Join(t.TempDir(), "new", "dir")
	env := StartEnv{Worker: 2, TranscriptDir: dir}
	a, err := env.CreateTranscript("my engine: v1/2")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := env.CreateTranscript("my engine: v1/2")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	name := filepath.Base(a.Name())
	if filepath.Dir(a.Name()) != dir || strings.ContainsAny(name, `/\: `) || !strings.HasPrefix(name, "my_engine__v1_2-w2-") {
		t.Errorf("transcript %q, want a safe name in %s", a.Name(), dir)
	}
	if a.Name() == b.Name() {
		t.Errorf("two players share the transcript %s", a.Name())
	}
}

func TestEngineSettingHelpers(t *testing.T) {
	e := EngineConfig{Settings: map[string]string{"on": "true", "off": "0", "bad": "yes please"}}
	for key, want := range map[string]bool{"on": true, "off": false, "unset": false} {
		if got, err := e.BoolSetting(key); got != want || err != nil {
			t.Errorf("%s: %v, %v; want %v", key, got, err, want)
		}
	}
	if _, err := e.BoolSetting("bad"); err == nil || !strings.Contains(err.Error(), "bad=yes please: want true or false") {
		t.Errorf("bad: %v", err)
	}
	for _, tc := range []struct {
		e  EngineConfig
		ok bool
	}{
		{EngineConfig{Command: []string{"x"}}, true},
		{EngineConfig{Addr: "127.0.0.1:9"}, true},
		{EngineConfig{Command: []string{"x"}, Addr: "127.0.0.1:9"}, false},
		{EngineConfig{}, false},
	} {
		if err := tc.e.ProgramOrAddress("a player"); (err == nil) != tc.ok {
			t.Errorf("%+v: %v", tc.e, err)
		}
	}
}
