package arbiter

import (
	"os"
	"path/filepath"
	"strings"
)

// LocalPathMark stands for a local path in an engine's run arguments (see RunArgs).
const LocalPathMark = "{local-path}"

// IsLocalPath reports whether an engine's argument names a local path: where something is on
// the machine that runs the engine, which may differ between two machines that play the same
// run. dir is the engine's working directory ("" for the current one).
//
// An argument is a local path when it, or the VALUE of an argument written -NAME=VALUE or
// --NAME=VALUE, is
//   - an absolute path: /opt/nets/big.nnue, C:\nets\big.nnue;
//   - a path with a directory in it, that is a word holding a / or a \: nets/big.nnue, ./bot.py
//     (so 1/2 counts as a path too);
//   - the name of a file or directory that exists in dir: bot.py, when dir holds bot.py.
//
// A flag with no value (-v, --profile), a URL (a word holding ://) and the empty word are not
// local paths. For -NAME=VALUE only the value is local: the flag is the run's.
func IsLocalPath(arg, dir string) bool {
	_, value := splitFlagValue(arg)
	switch {
	case value == "" || strings.Contains(value, "://"):
		return false
	case filepath.IsAbs(value) || strings.ContainsAny(value, `/\`):
		return true
	}
	_, err := os.Stat(filepath.Join(dir, value))
	return err == nil
}

// splitFlagValue splits -NAME=VALUE into "-NAME=" and "VALUE". A flag without a value has no
// value; a word that is not a flag is all value.
func splitFlagValue(arg string) (flag, value string) {
	if !strings.HasPrefix(arg, "-") {
		return "", arg
	}
	if i := strings.IndexByte(arg, '='); i >= 0 {
		return arg[:i+1], arg[i+1:]
	}
	return arg, ""
}

// RunArgs are the engine's arguments (its Command after the program) as they belong to its
// run: every local path (IsLocalPath) is replaced by LocalPathMark, and of -NAME=VALUE only
// the value (--weights={local-path}). Two machines that keep the engine's files in different
// places run it with the same RunArgs; arguments that differ otherwise make another engine.
func (e EngineConfig) RunArgs() []string {
	if len(e.Command) < 2 {
		return nil
	}
	args := make([]string, 0, len(e.Command)-1)
	for _, a := range e.Command[1:] {
		if IsLocalPath(a, e.Dir) {
			flag, _ := splitFlagValue(a)
			a = flag + LocalPathMark
		}
		args = append(args, a)
	}
	return args
}
