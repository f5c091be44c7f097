package configs

import (
	"maps"
	"slices"
	"strconv"

	"hivearbiter/arbiter/driver"
)

// EngineWords writes an engine back as the key=value words of -engine that ParseEngine reads
// into the same engine: the bundled engine as builtin=NAME (resolve says which of its
// command's words are the bundled engine's own), its arguments one arg= each, its time
// control, margin, protocol settings (by key) and options (in order). A name is written only
// when the engine has one.
func EngineWords(e driver.EngineConfig, resolve Resolver) []string {
	var words []string
	args := e.Command
	switch {
	case e.Builtin != "" && builtinPrefix(e, resolve) > 0:
		words = append(words, "builtin="+e.Builtin)
		args = e.Command[builtinPrefix(e, resolve):]
	case len(e.Command) > 0:
		words = append(words, "cmd="+e.Command[0])
		args = e.Command[1:]
	}
	for _, a := range args {
		words = append(words, "arg="+a)
	}
	if e.Addr != "" {
		words = append(words, "addr="+e.Addr)
	}
	if e.Protocol != "" {
		words = append(words, "proto="+e.Protocol)
	}
	if e.Name != "" {
		words = append(words, "name="+e.Name)
	}
	if e.Dir != "" {
		words = append(words, "dir="+e.Dir)
	}
	for _, v := range e.Env {
		words = append(words, "env="+v)
	}
	if !e.Time.IsZero() {
		words = append(words, LimitWord(e.Time))
	}
	if e.Margin > 0 {
		words = append(words, "margin="+strconv.FormatFloat(e.Margin.Seconds(), 'f', -1, 64))
	}
	if e.Restart {
		words = append(words, "restart=on")
	}
	for _, k := range slices.Sorted(maps.Keys(e.Settings)) {
		words = append(words, k+"="+e.Settings[k])
	}
	for _, o := range e.Options {
		words = append(words, "option."+o.Name+"="+o.Value)
	}
	return words
}

// builtinPrefix is how many words of the engine's command run its bundled engine, 0 when the
// command is not the one resolve gives for it.
func builtinPrefix(e driver.EngineConfig, resolve Resolver) int {
	if resolve == nil {
		return 0
	}
	cmd, err := resolve(e.Builtin)
	if err != nil || len(cmd) > len(e.Command) || !slices.Equal(cmd, e.Command[:len(cmd)]) {
		return 0
	}
	return len(cmd)
}

// CheckedEngineWords are the -engine words that play an engine as "arbiter check" found it
// must be played: its own words with the settings the check found (key=value words, which
// replace the engine's own of the same key), its limit written out, and no name, so that the
// line given once for each of two builds of the engine names each after its program
// (driver.DefaultNames) instead of naming both alike.
func CheckedEngineWords(e driver.EngineConfig, settings []string, resolve Resolver) ([]string, error) {
	e.Name = ""
	played, err := ParseEngine(append(EngineWords(e, resolve), settings...), resolve)
	if err != nil {
		return nil, err
	}
	return EngineWords(played, resolve), nil
}

// LimitWord is a time control as the word of an engine specification: st=1, depth=3, nodes=N
// or tc=10+0.1.
func LimitWord(tc driver.TimeControl) string {
	if tc.IsClock() {
		return "tc=" + tc.String()
	}
	return tc.String()
}

// CheckedMatch is the arguments of "arbiter match" that play an engine as "arbiter check" found
// it must be played (CheckedEngineWords), against the bundled engine at the same limit (over
// UGI for a node count, which UHP lacks), with the flags of the run the check found
// (-repetitions=3, -gametype=Base).
func CheckedMatch(e driver.EngineConfig, settings, flags []string, resolve Resolver) ([]string, error) {
	words, err := CheckedEngineWords(e, settings, resolve)
	if err != nil {
		return nil, err
	}
	opponent := []string{"-engine", "builtin=hivebot", LimitWord(e.Time)}
	if e.Time.Nodes > 0 {
		opponent = append(opponent, "proto=ugi")
	}
	return append(append(append([]string{"-engine"}, words...), opponent...), flags...), nil
}
