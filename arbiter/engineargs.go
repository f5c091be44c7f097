package arbiter

import (
	"path/filepath"
	"strings"
)

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
