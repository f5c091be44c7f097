package configs

import (
	"fmt"
	"strconv"
)

// EngineSetting is one of an engine's settings as the -engine and -each words name it
// (cmd=./engine), with the key of a configuration file's [[engine]] table that holds the same
// setting. EngineSettings is their one list: ParseEngine reads the words by it, suggests the word
// meant from it, and completes them; every key of the file's engine table is one of its Keys
// (or a table of its own: options, settings). option.NAME and a protocol's own settings
// (fractional=true) are read beside it.
type EngineSetting struct {
	Word string // the word's key: cmd in cmd=./engine
	// Key is the [[engine]] table's key that holds the setting: the word itself, args for arg,
	// tc for st, depth and nodes, margin for timemargin.
	Key string
	set func(e *engine, value, word string) error
}

// EngineSettings are an engine's settings, as words and as keys of a file's engine table
// (RunSettings are the run's).
var EngineSettings = []EngineSetting{
	{Word: "cmd", Key: "cmd", set: func(e *engine, v, _ string) error { e.Cmd = v; return nil }},
	{Word: "name", Key: "name", set: func(e *engine, v, _ string) error { e.Name = v; return nil }},
	{Word: "dir", Key: "dir", set: func(e *engine, v, _ string) error { e.Dir = v; return nil }},
	{Word: "arg", Key: "args", set: func(e *engine, v, _ string) error { e.Args = append(e.Args, v); return nil }},
	{Word: "args", Key: "args", set: func(e *engine, v, w string) error {
		// fastchess splits args= into arguments, with quotes for one that holds spaces.
		args, err := splitArgs(v)
		if err != nil {
			return &Error{Msg: fmt.Sprintf("%s: %v (or give one arg=ARG per argument)", w, err)}
		}
		e.Args = append(e.Args, args...)
		return nil
	}},
	{Word: "env", Key: "env", set: func(e *engine, v, _ string) error { e.Env = append(e.Env, v); return nil }},
	{Word: "tc", Key: "tc", set: func(e *engine, v, _ string) error { e.TC = v; return nil }},
	{Word: "st", Key: "tc", set: setLimitWord},
	{Word: "depth", Key: "tc", set: setLimitWord},
	{Word: "nodes", Key: "tc", set: setLimitWord},
	{Word: "proto", Key: "proto", set: func(e *engine, v, _ string) error { e.Proto = v; return nil }},
	{Word: "addr", Key: "addr", set: func(e *engine, v, _ string) error { e.Addr = v; return nil }},
	{Word: "builtin", Key: "builtin", set: func(e *engine, v, _ string) error { e.Builtin = v; return nil }},
	{Word: "margin", Key: "margin", set: func(e *engine, v, w string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 {
			return &Error{Msg: fmt.Sprintf("%s: want a number of seconds", w)}
		}
		e.Margin = f
		return nil
	}},
	{Word: "timemargin", Key: "margin", set: func(e *engine, v, w string) error {
		// fastchess's name, in fastchess's unit: whole milliseconds.
		ms, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return &Error{Msg: fmt.Sprintf("%s: want whole milliseconds, as in fastchess (or margin=SECONDS)", w)}
		}
		e.Margin = float64(ms) / 1000
		return nil
	}},
	{Word: "restart", Key: "restart", set: func(e *engine, v, w string) error {
		var r onOff
		if err := r.UnmarshalText([]byte(v)); err != nil {
			return &Error{Msg: fmt.Sprintf("%s: want on or off", w)}
		}
		e.Restart = &r
		return nil
	}},
}

// setLimitWord is st=SECONDS, depth=N and nodes=N: the engine's limit, written as tc is.
func setLimitWord(e *engine, _, word string) error {
	e.TC = word
	return nil
}

// engineSettingByWord is EngineSettings by word.
var engineSettingByWord = func() map[string]EngineSetting {
	m := make(map[string]EngineSetting, len(EngineSettings))
	for _, w := range EngineSettings {
		m[w.Word] = w
	}
	return m
}()

// engineWords are the words' keys, with option.NAME, for suggestions and completion.
var engineWords = func() []string {
	words := make([]string, 0, len(EngineSettings)+1)
	for _, w := range EngineSettings {
		words = append(words, w.Word)
	}
	return append(words, "option.NAME")
}()
