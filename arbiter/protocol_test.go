package arbiter

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCreateTranscript(t *testing.T) {
	if f, err := (StartEnv{}).CreateTranscript("e"); f != nil || err != nil {
		t.Errorf("no transcript dir: got %v, %v, want nothing", f, err)
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
