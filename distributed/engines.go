package distributed

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"hivearbiter/arbiter/driver"
)

// EngineMismatchError is a worker's -engine that would change one of the run's engines: other
// arguments than the run's (local paths aside), or an option, a protocol setting, a time
// control, a margin or a restart policy the run's engine does not have. The worker plays no
// game with it.
type EngineMismatchError struct {
	Engine string
	// Differences say each thing that differs, the run's side first.
	Differences []string
}

// Error names the engine and each way its worker's build differs from the run's.
func (e *EngineMismatchError) Error() string {
	return fmt.Sprintf("distributed: engine %q: %s", e.Engine, strings.Join(e.Differences, "; and "))
}

// WorkerEngines are a run's engines as a worker with the local engines starts them (see
// Worker.Engines): what the worker measures of them is what it plays.
func WorkerEngines(run, local []driver.EngineConfig) ([]driver.EngineConfig, error) {
	return workerEngines(&RunSpec{Engines: run}, local)
}

// workerEngines are the run's engines as this worker starts them: a run's engine is the run's,
// and only where its program is comes from the worker's own engine of the same name (see
// Worker.Engines). A worker engine that names none of the run's, or would change one, is an
// error.
func workerEngines(spec *RunSpec, local []driver.EngineConfig) ([]driver.EngineConfig, error) {
	for _, l := range local {
		if !slices.ContainsFunc(spec.Engines, func(e driver.EngineConfig) bool { return e.Name == l.Name }) {
			return nil, fmt.Errorf("distributed: this worker's engine %q is not one of the run's (engines are matched by name)", l.Name)
		}
	}
	engines := slices.Clone(spec.Engines)
	for i, e := range engines {
		at := slices.IndexFunc(local, func(l driver.EngineConfig) bool { return l.Name == e.Name })
		if at < 0 {
			continue // started as the coordinator starts it: a shared file system, say
		}
		l := local[at]
		if diffs := engineDifferences(e, l); len(diffs) > 0 {
			return nil, &EngineMismatchError{Engine: e.Name, Differences: diffs}
		}
		engines[i].Command, engines[i].Dir, engines[i].Env, engines[i].Addr = l.Command, l.Dir, l.Env, l.Addr
	}
	return engines, nil
}

// engineDifferences says what a worker's engine l would change in the run's engine e. l's
// arguments must be the run's, but for the local paths (their RunArgs are equal); a setting l
// leaves at its zero value is the run's, and one it gives must be the run's.
func engineDifferences(e, l driver.EngineConfig) []string {
	var diffs []string
	differ := func(run, worker string) { diffs = append(diffs, "the run "+run+"; this worker's -engine "+worker) }
	if runArgs, localArgs := e.RunArgs(), l.RunArgs(); len(l.Command) > 0 && !slices.Equal(localArgs, runArgs) {
		worker := passes(localArgs, "has none")
		if pathForName(runArgs, localArgs) {
			worker += " (a path where the run has a file name: give that name, and its directory with dir=)"
		}
		differ(passes(runArgs, "passes no arguments"), worker)
	}
	if l.Protocol != "" && l.ProtocolName() != e.ProtocolName() {
		differ("speaks proto="+e.ProtocolName(), "says proto="+l.ProtocolName())
	}
	for _, o := range l.Options {
		at := slices.IndexFunc(e.Options, func(r driver.EngineOption) bool { return r.Name == o.Name })
		switch {
		case at < 0:
			differ("does not set option."+o.Name, "sets option."+o.Name+"="+o.Value)
		case e.Options[at].Value != o.Value:
			differ("sets option."+o.Name+"="+e.Options[at].Value, "sets option."+o.Name+"="+o.Value)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(l.Settings)) {
		run, ok := e.Settings[k]
		switch {
		case !ok:
			differ("does not set "+k, "sets "+k+"="+l.Settings[k])
		case run != l.Settings[k]:
			differ("sets "+k+"="+run, "sets "+k+"="+l.Settings[k])
		}
	}
	if !l.Time.IsZero() && l.Time != e.Time {
		differ("plays "+e.Time.String(), "plays "+l.Time.String())
	}
	if l.Margin != 0 && l.Margin != e.Margin {
		differ("gives a margin of "+seconds(e.Margin), "gives margin="+strings.TrimSuffix(seconds(l.Margin), "s"))
	}
	if l.Restart && !e.Restart {
		differ("keeps the engine from game to game", "sets restart=on")
	}
	return diffs
}

// pathForName reports whether a worker gives a local path where the run gives a bare name.
func pathForName(run, worker []string) bool {
	for i := range min(len(run), len(worker)) {
		if strings.HasSuffix(worker[i], driver.LocalPathMark) && !strings.HasSuffix(run[i], driver.LocalPathMark) {
			return true
		}
	}
	return false
}

// passes says which arguments an engine is given.
func passes(args []string, none string) string {
	if len(args) == 0 {
		return none
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if a == "" || strings.ContainsAny(a, " \t\"'") {
			quoted[i] = strconv.Quote(a)
		}
	}
	return "passes arg " + strings.Join(quoted, " ")
}

func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'g', -1, 64) + "s" }

// TuneEngines are a tune run's engines as a worker starts them: as workerEngines makes a
// run's, the run's engine with only where its program is from the worker's own of that name.
func TuneEngines(run, local []driver.EngineConfig) ([]driver.EngineConfig, error) {
	return workerEngines(&RunSpec{Engines: run}, local)
}
