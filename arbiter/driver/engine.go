package driver

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// EngineConfig describes one engine of a tournament and how to reach it. The settings every
// protocol shares are fields; those of one protocol are in Settings, checked by the protocol.
type EngineConfig struct {
	Name string // unique within the tournament
	// Protocol is the protocol the engine speaks ("uhp" when empty); see Register.
	Protocol string
	Command  []string // program and arguments; never run through a shell
	// Builtin names the bundled engine that Command runs (builtin=hivebot), "" for a program
	// of the user's: it is the engine's default name, and how it is written back as words.
	Builtin string   `json:",omitempty"`
	Dir     string   // working directory
	Env     []string // extra environment, KEY=VALUE
	// Addr is the HOST:PORT of a player reached over TCP instead of started as a program.
	Addr string
	// Options are the engine's own options, set after it starts, in this order (for example to
	// turn off pondering and helper threads for fair timing).
	Options []EngineOption
	// Settings are protocol-specific settings (for UHP, fractional=true), by key.
	Settings map[string]string
	Time     TimeControl
	// Margin is the lateness forgiven on each move before the engine loses on time.
	Margin time.Duration
	// Restart asks for a fresh process for every game (restart=on), for engines that leak
	// memory or keep state from game to game.
	Restart bool
	// Program, if set, identifies the exact build the engine runs (a rating list's hash of its
	// files, command and settings): it is recorded with each of its games, so that a number
	// names exact bits. It is not part of the run's fingerprint.
	Program string
}

// EngineOption is one of an engine's own options to set.
type EngineOption struct{ Name, Value string }

// ConfigError reports an invalid tournament configuration.
type ConfigError struct{ Msg string }

// Error returns what went wrong, as a user reads it.
func (e *ConfigError) Error() string { return "arbiter: " + e.Msg }

// Message is the error without the package's name.
func (e *ConfigError) Message() string { return e.Msg }

// DefaultName is the name of an engine that is given none: the bundled engine's (hivebot), the
// program's file name, or the address of a player reached over TCP.
func (e EngineConfig) DefaultName() string {
	switch {
	case e.Builtin != "":
		return e.Builtin
	case len(e.Command) > 0 && e.Command[0] != "":
		return lastElements(e.program(), 1)
	}
	return e.Addr
}

// Interpreted reports whether the engine's program is an interpreter that runs a script
// (python3 engine.py, node bot.js), whose own name would name every such engine alike.
func (e EngineConfig) Interpreted() bool {
	if len(e.Command) < 2 {
		return false
	}
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(e.Command[0])), ".exe")
	for _, p := range []string{"python", "pypy", "node", "deno", "bun", "ruby", "perl", "php", "java", "mono", "dotnet", "sh", "bash", "lua", "julia", "rscript"} {
		if base == p || strings.HasPrefix(base, p) && strings.Trim(base[len(p):], "0123456789.") == "" {
			return true
		}
	}
	return false
}

// Script is the file name of the script an interpreted engine runs ("engine.py" of python3
// -u /home/me/engine.py): its first argument that is not an option; "" for a program that is
// not an interpreter.
func (e EngineConfig) Script() string {
	if !e.Interpreted() {
		return ""
	}
	for _, arg := range e.Command[1:] {
		if arg != "" && !strings.HasPrefix(arg, "-") {
			return filepath.Base(arg)
		}
	}
	return ""
}

// program is the path of the engine's program, with its directory when it is relative, as
// slash-separated elements: what tells two builds of one engine apart.
func (e EngineConfig) program() string {
	if e.Builtin != "" {
		return e.Builtin
	}
	p := strings.ReplaceAll(e.Command[0], `\`, "/")
	if e.Dir != "" && !strings.HasPrefix(p, "/") && !filepath.IsAbs(e.Command[0]) {
		p = strings.ReplaceAll(e.Dir, `\`, "/") + "/" + p
	}
	return path.Clean(p)
}

// lastElements is the last n elements of a slash-separated path, joined by slashes.
func lastElements(p string, n int) string {
	elems := strings.Split(strings.Trim(p, "/"), "/")
	return strings.Join(elems[max(len(elems)-n, 0):], "/")
}

// DefaultNames names each engine that has none. Its DefaultName is kept when no other engine
// has that name; otherwise, so that two builds of one engine (a gate's ./base/engine and
// ./dev/engine) play without a name= each, it grows by the directories of its program's path
// until it differs ("dev/engine"), and an engine whose program is the same as another's (two
// profiles of the bundled engine) is numbered ("hivebot-2"). A run that names every engine
// apart, or whose default names differ, is named as before.
func DefaultNames(engines []EngineConfig) {
	taken := map[string]int{} // names given, and default names, by how many engines have them
	var unnamed []int
	for i, e := range engines {
		if e.Name != "" {
			taken[e.Name]++
			continue
		}
		if e.DefaultName() == "" {
			continue
		}
		unnamed = append(unnamed, i)
		taken[e.DefaultName()]++
	}
	depth := make(map[int]int, len(unnamed))
	name := func(i int) string {
		if depth[i] <= 1 {
			return engines[i].DefaultName()
		}
		return lastElements(engines[i].program(), depth[i])
	}
	for grown := true; grown; {
		grown = false
		var colliding []int // decided before any grows, so that both of a pair do
		for _, i := range unnamed {
			if taken[name(i)] > 1 && engines[i].Builtin == "" && len(engines[i].Command) > 0 {
				colliding = append(colliding, i)
			}
		}
		for _, i := range colliding {
			n, d := name(i), max(depth[i], 1)+1
			if longer := lastElements(engines[i].program(), d); longer != n {
				taken[n]--
				depth[i] = d
				taken[longer]++
				grown = true
			}
		}
	}
	given := map[string]bool{}
	for _, e := range engines {
		if e.Name != "" {
			given[e.Name] = true
		}
	}
	for _, i := range unnamed {
		n := name(i)
		for k := 2; given[n]; k++ {
			n = fmt.Sprintf("%s-%d", name(i), k)
		}
		engines[i].Name, given[n] = n, true
	}
}

// LocalPathMark stands for a local path in an engine's run arguments (see RunArgs).
const LocalPathMark = "{local-path}"

// IsLocalPath reports whether an engine's argument names a local path: where something is on
// the machine that runs the engine, which may differ between two machines that play the same
// run.
//
// An argument is a local path when it, or the VALUE of an argument written NAME=VALUE,
// -NAME=VALUE or --NAME=VALUE (a NAME without / or \), is an absolute path (/opt/nets/big.nnue,
// C:\nets\big.nnue) or holds a path separator, / or \ (nets/big.nnue, ./bot.py, and so also
// 1/2). Of NAME=VALUE only the value is local: the name is the run's. A flag with no value (-v,
// --profile), a URL (a word holding ://) and the empty word are not local paths.
//
// A bare file name (bot.py) is not a local path, even when such a file exists: the decision is
// the argument's alone, so that a run's id does not depend on the files around it. A worker
// that keeps bot.py elsewhere gives its directory (dir=) instead.
func IsLocalPath(arg string) bool {
	_, value := splitNameValue(arg)
	if value == "" || strings.Contains(value, "://") {
		return false
	}
	return filepath.IsAbs(value) || strings.ContainsAny(value, `/\`)
}

// splitNameValue splits NAME=VALUE (or -NAME=VALUE) into "NAME=" and "VALUE", when NAME holds
// no path separator. A flag without a value has no value; any other word is all value.
func splitNameValue(arg string) (name, value string) {
	eq := strings.IndexByte(arg, '=')
	if eq >= 0 && !strings.ContainsAny(arg[:eq], `/\`) {
		return arg[:eq+1], arg[eq+1:]
	}
	if strings.HasPrefix(arg, "-") {
		return arg, ""
	}
	return "", arg
}

// RunArgs are the engine's arguments (its Command after the program) as they belong to its
// run: every local path (IsLocalPath) is replaced by LocalPathMark, and of NAME=VALUE only
// the value (--weights={local-path}). Two machines that keep the engine's files in different
// places run it with the same RunArgs; arguments that differ otherwise make another engine.
func (e EngineConfig) RunArgs() []string {
	if len(e.Command) < 2 {
		return nil
	}
	args := make([]string, 0, len(e.Command)-1)
	for _, a := range e.Command[1:] {
		if IsLocalPath(a) {
			name, _ := splitNameValue(a)
			a = name + LocalPathMark
		}
		args = append(args, a)
	}
	return args
}

// ProtocolName is the engine's protocol, DefaultProtocol when it names none.
func (e EngineConfig) ProtocolName() string {
	if e.Protocol == "" {
		return DefaultProtocol
	}
	return e.Protocol
}

// Setting returns a protocol-specific setting of the engine, "" when unset.
func (e EngineConfig) Setting(key string) string { return e.Settings[key] }

// BoolSetting reads a protocol-specific setting that is true or false; an unset one is false.
func (e EngineConfig) BoolSetting(key string) (bool, error) {
	v := e.Setting(key)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, &ConfigError{Msg: fmt.Sprintf("%s=%s: want true or false", key, v)}
	}
	return b, nil
}

// ProgramOrAddress checks that an engine is reached one way: a program to start (cmd=) or a
// listener to connect to (addr=). what names such an engine in the message ("a UGI engine").
func (e EngineConfig) ProgramOrAddress(what string) error {
	hasCommand := len(e.Command) > 0 && e.Command[0] != ""
	if hasCommand == (e.Addr != "") {
		return &ConfigError{Msg: what + " is a program (cmd=PROGRAM) or a listener (addr=HOST:PORT): give one"}
	}
	return nil
}

// UnknownSettings lists the engine's protocol-specific settings that are not among known,
// sorted: a protocol's Validate refuses them.
func (e EngineConfig) UnknownSettings(known ...string) []string {
	var unknown []string
	for k := range e.Settings {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	return unknown
}

// Message is an error's text without its package's name, when the error says it (with a
// Message method, as ConfigError does): for a library that words another package's error
// inside its own, which names where it came from itself. It is the arbiter's one error
// convention (docs/architecture.md, "One error convention") on the libraries' side; the
// command's is cli.Message, which the import rules keep apart from this package.
func Message(err error) string {
	if m, ok := err.(interface{ Message() string }); ok {
		return m.Message()
	}
	return err.Error()
}
