package distributed

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/driver"
	_ "hivearbiter/proto/uhp" // the protocol of the worker engines parsed below
)

// TestWorkerEngines: a run's engine is the run's, and a worker's -engine says only where its
// program is; one that would change the engine is refused, naming what differs.
func TestWorkerEngines(t *testing.T) {
	st1 := driver.TimeControl{MoveTime: time.Second}
	run := driver.EngineConfig{
		Name: "old", Command: []string{"/coord/bin/hivebot", "-profile", "medium", "--book=/coord/book.txt"},
		Dir: "/coord", Env: []string{"A=1"}, Time: st1, Margin: 500 * time.Millisecond, Restart: true,
		Options:  []driver.EngineOption{{Name: "Threads", Value: "1"}, {Name: "Hash", Value: "64"}},
		Settings: map[string]string{"fractional": "true"},
	}
	other := driver.EngineConfig{Name: "other", Command: []string{"other"}, Time: st1}
	spec := &RunSpec{Engines: []driver.EngineConfig{run, other}}
	local := func(f func(e *driver.EngineConfig)) driver.EngineConfig {
		e := driver.EngineConfig{Name: "old", Command: []string{"/home/w/hivebot", "-profile", "medium", "--book=/home/w/book.txt"},
			Dir: "/home/w", Env: []string{"B=2"}}
		if f != nil {
			f(&e)
		}
		return e
	}
	for _, tc := range []struct {
		name  string
		local driver.EngineConfig
		want  string // the refusal, "" when the worker plays
	}{
		{"where the program is", local(nil), ""},
		{"the run's settings given again", local(func(e *driver.EngineConfig) {
			e.Time, e.Margin, e.Restart, e.Protocol = st1, 500*time.Millisecond, true, "uhp"
			e.Options = []driver.EngineOption{{Name: "Hash", Value: "64"}}
			e.Settings = map[string]string{"fractional": "true"}
		}), ""},
		{"fewer arguments", local(func(e *driver.EngineConfig) { e.Command = []string{"hivebot"} }),
			`engine "old": the run passes arg -profile medium --book={local-path}; this worker's -engine has none`},
		{"another argument", local(func(e *driver.EngineConfig) { e.Command[2] = "strong" }),
			`the run passes arg -profile medium --book={local-path}; this worker's -engine passes arg -profile strong --book={local-path}`},
		{"a local path for a word", local(func(e *driver.EngineConfig) { e.Command[2] = "/home/w/medium" }),
			`this worker's -engine passes arg -profile {local-path} --book={local-path}`},
		{"another option", local(func(e *driver.EngineConfig) { e.Options = []driver.EngineOption{{Name: "Threads", Value: "4"}} }),
			`the run sets option.Threads=1; this worker's -engine sets option.Threads=4`},
		{"an option the run has not", local(func(e *driver.EngineConfig) { e.Options = []driver.EngineOption{{Name: "Ponder", Value: "true"}} }),
			`the run does not set option.Ponder; this worker's -engine sets option.Ponder=true`},
		{"another protocol setting", local(func(e *driver.EngineConfig) { e.Settings = map[string]string{"fractional": "false"} }),
			`the run sets fractional=true; this worker's -engine sets fractional=false`},
		{"another protocol", local(func(e *driver.EngineConfig) { e.Protocol = "ugi" }),
			`the run speaks proto=uhp; this worker's -engine says proto=ugi`},
		{"another time control", local(func(e *driver.EngineConfig) { e.Time = driver.TimeControl{Depth: 3} }),
			`the run plays st=1; this worker's -engine plays depth=3`},
		{"another margin", local(func(e *driver.EngineConfig) { e.Margin = time.Second }),
			`the run gives a margin of 0.5s; this worker's -engine gives margin=1`},
		{"two differences", local(func(e *driver.EngineConfig) { e.Command = e.Command[:1]; e.Time = driver.TimeControl{Depth: 3} }),
			`this worker's -engine has none; and the run plays st=1; this worker's -engine plays depth=3`},
	} {
		engines, err := workerEngines(spec, []driver.EngineConfig{tc.local})
		if tc.want != "" {
			var me *EngineMismatchError
			if !errors.As(err, &me) || me.Engine != "old" || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: err = %v, want an EngineMismatchError saying %q", tc.name, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got, want := engines[0], run
		want.Command, want.Dir, want.Env = tc.local.Command, "/home/w", []string{"B=2"}
		if !slices.Equal(got.Command, want.Command) || got.Dir != want.Dir || !slices.Equal(got.Env, want.Env) ||
			!slices.Equal(got.Options, run.Options) || got.Settings["fractional"] != "true" || got.Time != st1 ||
			got.Margin != run.Margin || !got.Restart || got.ProtocolName() != "uhp" {
			t.Errorf("%s: the worker starts %+v, want %+v", tc.name, got, want)
		}
		if !slices.Equal(engines[1].Command, other.Command) {
			t.Errorf("%s: an engine the worker does not name starts as %q, want the run's %q", tc.name, engines[1].Command, other.Command)
		}
	}
	if _, err := workerEngines(spec, []driver.EngineConfig{{Name: "new", Command: []string{"new"}}}); err == nil || !strings.Contains(err.Error(), `"new" is not one of the run's`) {
		t.Errorf("an engine the run does not have: err = %v", err)
	}
}

// TestWorkerEnginesKeepFileNames: a bare file name is the run's argument; a worker that keeps
// the file elsewhere says where with dir=, and a worker that names it by its path is refused.
func TestWorkerEnginesKeepFileNames(t *testing.T) {
	run := driver.EngineConfig{Name: "bot", Command: []string{"python3", "bot.py"}, Time: driver.TimeControl{MoveTime: time.Second}}
	spec := &RunSpec{Engines: []driver.EngineConfig{run}}
	engines, err := workerEngines(spec, []driver.EngineConfig{{Name: "bot", Command: []string{"python3", "bot.py"}, Dir: "/home/w/bots"}})
	if err != nil {
		t.Fatal(err)
	}
	if e := engines[0]; e.Dir != "/home/w/bots" || !slices.Equal(e.Command, run.Command) {
		t.Errorf("the worker starts %q in %q, want %q in /home/w/bots", e.Command, e.Dir, run.Command)
	}
	_, err = workerEngines(spec, []driver.EngineConfig{{Name: "bot", Command: []string{"python3", "/home/w/bots/bot.py"}}})
	if want := `the run passes arg bot.py; this worker's -engine passes arg {local-path} (a path where the run has a file name: give that name, and its directory with dir=)`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to say %q", err, want)
	}
}
