package configs

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
)

// Error reports a problem in a configuration: a file's key, at its line when known, or a
// command-line flag.
type Error struct {
	File string
	Line int    // 0 when unknown
	Key  string // the offending key, when known
	Flag string // the flag that gave the setting, for a problem of the command line
	Msg  string
}

// Error returns what went wrong, as a user reads it.
func (e *Error) Error() string { return "configs: " + e.Message() }

// Message is the problem without the package's name, as a command shows it to a user.
func (e *Error) Message() string {
	var b strings.Builder
	switch {
	case e.Flag != "":
		b.WriteString(e.Flag + " ")
	case e.File != "":
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Key != "" {
		fmt.Fprintf(&b, "%s: ", e.Key)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Resolver turns the name of a built-in engine (builtin = "hivebot") into the command that runs
// it. The arbiter binary resolves "hivebot" to itself.
type Resolver func(name string) ([]string, error)

// file is the TOML layout of a configuration. Durations are in seconds.
type file struct {
	Format          string        `toml:"format"`
	GameType        string        `toml:"game_type"`
	Rounds          int           `toml:"rounds"`
	Games           int           `toml:"games"`
	Seeds           int           `toml:"seeds"`
	Concurrency     int           `toml:"concurrency"`
	Seed            int64         `toml:"seed"`
	Out             string        `toml:"out"`
	PGNOut          string        `toml:"pgn_out"`
	JSONOut         string        `toml:"json_out"`
	Transcripts     string        `toml:"transcripts"`
	Event           string        `toml:"event"`
	RatingInterval  int           `toml:"rating_interval"`
	Strict          bool          `toml:"strict"`
	StartTimeout    float64       `toml:"start_timeout"`
	CommandTimeout  float64       `toml:"command_timeout"`
	DepthTimeout    float64       `toml:"depth_timeout"`
	OnEngineFailure string        `toml:"on_engine_failure"`
	FailureStreak   int           `toml:"failure_streak"`
	Affinity        bool          `toml:"affinity"`
	Openings        openingsTable `toml:"openings"`
	Adjudication    adjudication  `toml:"adjudication"`
	SPRT            *sprt         `toml:"sprt"`
	Each            engine        `toml:"each"`
	Engines         []engine      `toml:"engine"`
	Tune            *tuneSection  `toml:"tune"`
	meta            toml.MetaData `toml:"-"`
}

type openingsTable struct {
	File  string `toml:"file"`
	Book  string `toml:"book"`
	Order string `toml:"order"`
	Start int    `toml:"start"`
	Plies int    `toml:"plies"`
}

type adjudication struct {
	Repetitions int `toml:"repetitions"`
	MaxPlies    int `toml:"max_plies"`
	MaxMoves    int `toml:"max_moves"` // moves of each side, as fastchess's -maxmoves: 2 plies each
}

type sprt struct {
	Elo0  float64 `toml:"elo0"`
	Elo1  float64 `toml:"elo1"`
	Alpha float64 `toml:"alpha"`
	Beta  float64 `toml:"beta"`
	Model string  `toml:"model"`
	AtCap string  `toml:"at_cap"` // "decide" (the default) or "inconclusive"
}

type engine struct {
	Name       string   `toml:"name"`
	Proto      string   `toml:"proto"`
	Addr       string   `toml:"addr"`
	Cmd        string   `toml:"cmd"`
	Args       []string `toml:"args"`
	Builtin    string   `toml:"builtin"`
	Dir        string   `toml:"dir"`
	Env        []string `toml:"env"`
	TC         string   `toml:"tc"`
	Margin     float64  `toml:"margin"`
	Fractional *bool    `toml:"fractional_seconds"`
	// FractionalFlag is the command line's spelling, fractional, accepted in a file too.
	FractionalFlag *bool             `toml:"fractional"`
	Restart        *onOff            `toml:"restart"`
	Options        map[string]string `toml:"options"`
	// Settings are the protocol's own settings (fractional for UHP, transport for the Hive
	// API, ...), checked by the protocol.
	Settings   map[string]string `toml:"settings"`
	optionKeys []string          // Options in file order
}

// LoadFile reads a TOML configuration, with the defaults and checks of "arbiter match
// -config": unknown keys and bad values are errors that name the file, the line and the key.
func LoadFile(path string, resolve Resolver) (arbiter.Config, error) {
	r, err := ReadFile(path)
	if err != nil {
		return arbiter.Config{}, err
	}
	return r.Config(resolve)
}

// ReadFile reads a TOML configuration's settings, for flags to override (see Flags).
func ReadFile(path string) (*Run, error) {
	data, err := readData(path)
	if err != nil {
		return nil, err
	}
	return read(path, data)
}

// readData reads a configuration file, saying plainly what is wrong with it.
func readData(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &Error{File: path, Msg: "no such file"}
		}
		return nil, &Error{File: path, Msg: errors.Unwrap(err).Error()}
	}
	return data, nil
}

var typeErrorPattern = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)

// Load reads a TOML configuration from data; name is used in error messages.
func Load(name string, data []byte, resolve Resolver) (arbiter.Config, error) {
	r, err := read(name, data)
	if err != nil {
		return arbiter.Config{}, err
	}
	return r.Config(resolve)
}

// decodeError is a TOML file's syntax or type error, at its line.
func decodeError(name string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &Error{File: name, Line: pe.Position.Line, Key: pe.LastKey, Msg: pe.Message}
	}
	// Type mismatches come back as plain text: "toml: line N (last key "K"): message".
	if m := typeErrorPattern.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{File: name, Line: line, Key: m[2], Msg: m[3]}
	}
	return &Error{File: name, Msg: err.Error()}
}

func read(name string, data []byte) (*Run, error) {
	r := &Run{name: name, data: data}
	md, err := toml.Decode(string(data), &r.f)
	if err != nil {
		return nil, decodeError(name, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		// Every unknown key at once: a file with three is fixed in one go, not three.
		var problems []error
		for _, k := range undecoded {
			problems = append(problems, &Error{File: name, Line: lineOfKey(data, k[len(k)-1]), Key: k.String(), Msg: unknownKey(k)})
		}
		return nil, errors.Join(problems...)
	}
	orderOptions(&r.f, md)
	for _, k := range md.Keys() {
		r.set(k.String(), "")
	}
	return r, nil
}

// orderOptions records the order of each engine's options as the file lists them (a TOML table
// decodes into an unordered map, but engines may care in which order options are set).
func orderOptions(f *file, md toml.MetaData) {
	engineIndex := -1
	for _, k := range md.Keys() {
		switch {
		case len(k) == 1 && k[0] == "engine":
			engineIndex++
		case len(k) == 3 && k[0] == "engine" && k[1] == "options" && engineIndex >= 0 && engineIndex < len(f.Engines):
			f.Engines[engineIndex].optionKeys = append(f.Engines[engineIndex].optionKeys, k[2])
		case len(k) == 3 && k[0] == "each" && k[1] == "options":
			f.Each.optionKeys = append(f.Each.optionKeys, k[2])
		}
	}
}

// lineOfKey finds the first line that defines key, for error messages.
func lineOfKey(data []byte, key string) int {
	re := regexp.MustCompile(`^\s*(\[+\s*)?("?)` + regexp.QuoteMeta(key) + `("?)\s*(=|\])`)
	for i, line := range strings.Split(string(data), "\n") {
		if re.MatchString(line) {
			return i + 1
		}
	}
	return 0
}

// fieldError names the key of an engine table that is wrong.
type fieldError struct{ key, msg string }

func (e fieldError) Error() string { return e.key + ": " + e.msg }

// withDefaults fills what the engine leaves unset from the [each] table.
func (e engine) withDefaults(each engine) engine {
	if e.Restart == nil {
		e.Restart = each.Restart
	}
	if e.TC == "" {
		e.TC = each.TC
	}
	if e.Margin == 0 {
		e.Margin = each.Margin
	}
	if e.Fractional == nil && e.FractionalFlag == nil {
		e.Fractional, e.FractionalFlag = each.Fractional, each.FractionalFlag
	}
	if e.Dir == "" {
		e.Dir = each.Dir
	}
	if e.Proto == "" {
		e.Proto = each.Proto
	}
	if len(each.Settings) > 0 {
		settings := maps.Clone(each.Settings)
		maps.Copy(settings, e.Settings)
		e.Settings = settings
	}
	e.Env = append(append([]string(nil), each.Env...), e.Env...)
	merged := make(map[string]string)
	var keys []string
	for _, k := range each.optionKeys {
		if _, own := e.Options[k]; !own {
			merged[k] = each.Options[k]
			keys = append(keys, k)
		}
	}
	for _, k := range e.optionKeys {
		merged[k] = e.Options[k]
		keys = append(keys, k)
	}
	e.Options, e.optionKeys = merged, keys
	return e
}

func (e engine) engineConfig(resolve Resolver) (driver.EngineConfig, error) {
	ec := driver.EngineConfig{Name: e.Name, Protocol: e.Proto, Addr: e.Addr, Dir: e.Dir, Env: e.Env, Margin: seconds(e.Margin)}
	if e.Restart != nil {
		ec.Restart = bool(*e.Restart)
	}
	if e.FractionalFlag != nil {
		if e.Fractional != nil {
			return ec, fieldError{"fractional", "fractional and fractional_seconds are one setting: give one of them"}
		}
		e.Fractional = e.FractionalFlag
	}
	if len(e.Settings) > 0 {
		ec.Settings = maps.Clone(e.Settings)
	}
	setting := func(k, v string) {
		if ec.Settings == nil {
			ec.Settings = map[string]string{}
		}
		ec.Settings[k] = v
	}
	switch {
	case e.Builtin != "" && e.Cmd != "":
		return ec, fieldError{"builtin", "give either cmd or builtin, not both"}
	case e.Builtin != "":
		if resolve == nil {
			return ec, fieldError{"builtin", "built-in engines are not available here"}
		}
		cmd, err := resolve(e.Builtin)
		if err != nil {
			return ec, fieldError{"builtin", err.Error()}
		}
		ec.Command, ec.Builtin = append(cmd, e.Args...), e.Builtin
		if e.Fractional == nil && e.Proto == "" {
			setting("fractional", "true") // the bundled engine accepts fractions of a second
		}
	case e.Cmd != "":
		ec.Command = append([]string{e.Cmd}, e.Args...)
	case e.Addr != "":
	default:
		return ec, fieldError{"cmd", "missing: give the engine's program (or addr=HOST:PORT for a player reached over TCP)"}
	}
	if e.Fractional != nil {
		setting("fractional", strconv.FormatBool(*e.Fractional))
	}
	if e.TC == "" {
		return ec, fieldError{"tc", "missing: give st=SECONDS, depth=N, nodes=N or BASE+INC here or in [each]"}
	}
	tc, err := driver.ParseTimeControl(e.TC)
	if err != nil {
		var tce *driver.TimeControlError
		if errors.As(err, &tce) {
			return ec, fieldError{"tc", fmt.Sprintf("%q: %s", e.TC, tce.Reason)}
		}
		return ec, fieldError{"tc", err.Error()}
	}
	ec.Time = tc
	if e.Margin < 0 {
		return ec, fieldError{"margin", "cannot be negative"}
	}
	for _, k := range e.optionKeys {
		ec.Options = append(ec.Options, driver.EngineOption{Name: k, Value: e.Options[k]})
	}
	return ec, nil
}

// ParseEngine reads an engine specification in the style of fastchess and cutechess-cli:
// key=value words such as cmd=./engine name=dev tc=10+0.1 option.Threads=1. Keys: proto, cmd,
// addr, name, dir, arg (one argument, repeatable), args (split on spaces as fastchess does,
// quotes keeping an argument whole), env (KEY=VALUE, repeatable), tc (also st=SECONDS, depth=N
// and nodes=N), margin (seconds), timemargin (milliseconds, as in fastchess), restart=on|off,
// builtin, option.NAME; any other key is a setting of the engine's protocol (fractional=true
// for UHP, say), which the protocol checks. A key that is nearly a known one, or a setting of
// the run, is refused with the name meant. A word that holds a whole specification, such as
// "cmd=./engine dir=/opt", is split into its settings.
func ParseEngine(words []string, resolve Resolver) (driver.EngineConfig, error) {
	var e engine
	e.Options = map[string]string{}
	for _, w := range splitSpecification(words) {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			return driver.EngineConfig{}, &Error{Msg: fmt.Sprintf("engine setting %q: want key=value", w)}
		}
		word, known := engineSettingByWord[k]
		switch {
		case known:
			if err := word.set(&e, v, w); err != nil {
				return driver.EngineConfig{}, err
			}
		case strings.HasPrefix(k, "option."):
			name := strings.TrimPrefix(k, "option.")
			if _, dup := e.Options[name]; !dup {
				e.optionKeys = append(e.optionKeys, name)
			}
			e.Options[name] = v
		case k == "" || strings.ContainsAny(k, " \t"):
			return driver.EngineConfig{}, &Error{Msg: fmt.Sprintf("engine setting %q: want key=value", w)}
		default:
			if near, ok := driver.ClosestName(k, runFlags); ok {
				return driver.EngineConfig{}, &Error{Msg: fmt.Sprintf("%s is a setting of the run, not of an engine: give -%s VALUE (%s in a config file)",
					w, near, runKeys[near])}
			}
			if near, ok := driver.ClosestName(k, engineWords); ok {
				return driver.EngineConfig{}, &Error{Msg: fmt.Sprintf("unknown engine setting %s: did you mean %s?", w, near)}
			}
			// A protocol's setting misspelled, or the file's fractional_seconds on the command line.
			settings := driver.SettingNames()
			if k == "fractional_seconds" {
				return driver.EngineConfig{}, &Error{Msg: fmt.Sprintf("unknown engine setting %s: did you mean fractional?", w)}
			}
			if near, ok := driver.ClosestName(k, settings); ok && !slices.Contains(settings, k) {
				return driver.EngineConfig{}, &Error{Msg: fmt.Sprintf("unknown engine setting %s: did you mean %s?", w, near)}
			}
			// A protocol's own setting: the protocol says whether it knows it.
			if e.Settings == nil {
				e.Settings = map[string]string{}
			}
			e.Settings[k] = v
		}
	}
	ec, err := e.engineConfig(resolve)
	if err != nil {
		return ec, &Error{Msg: fmt.Sprintf("engine %s", err)}
	}
	if err := driver.Validate(ec); err != nil {
		return ec, &Error{Key: "engine", Msg: driver.Message(err)}
	}
	return ec, nil
}

// splitSpecification splits a word that is a whole specification quoted as one, such as
// "cmd=./engine dir=/opt/engine": when every space-separated field of it is a key=value word of
// a known key. A value with spaces (name=My Engine, arg=--hash 64) stays one word.
func splitSpecification(words []string) []string {
	var out []string
	for _, w := range words {
		fields := strings.Fields(w)
		split := len(fields) > 1
		for _, f := range fields {
			k, _, ok := strings.Cut(f, "=")
			if !ok || !(slices.Contains(engineWords, k) || strings.HasPrefix(k, "option.") || slices.Contains(driver.SettingNames(), k)) {
				split = false
				break
			}
		}
		if split {
			out = append(out, fields...)
		} else {
			out = append(out, w)
		}
	}
	return out
}

// runKeys are the settings of a whole run that users also try among an engine's, by the
// command line's flag, with the config file's key (RunSettings' EngineLike).
var runKeys = engineLike()

// runFlags are runKeys' flags.
var runFlags = slices.Sorted(maps.Keys(runKeys))

// onOff is a yes-or-no setting written as on/off (fastchess's restart=on), true/false, or a
// TOML boolean.
type onOff bool

func (o *onOff) UnmarshalText(text []byte) error {
	switch strings.ToLower(string(text)) {
	case "on", "true", "yes", "1":
		*o = true
	case "off", "false", "no", "0":
		*o = false
	default:
		return fmt.Errorf("%q: want on or off", text)
	}
	return nil
}

// UnmarshalTOML takes a TOML boolean or a string.
func (o *onOff) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case bool:
		*o = onOff(v)
		return nil
	case string:
		return o.UnmarshalText([]byte(v))
	}
	return fmt.Errorf("%v: want on or off", v)
}

// splitArgs splits an argument string as fastchess's args= is split: on spaces, with double or
// single quotes around an argument that holds spaces, and no other shell syntax.
func splitArgs(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inArg := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inArg = r, true
		case r == ' ' || r == '\t':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated quote %c", quote)
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args, nil
}

// MergeEngine fills what an engine specification leaves unset from the -each words, with the
// engine's own words taking precedence.
func MergeEngine(each, own []string) []string {
	return append(append([]string(nil), each...), own...)
}

// unknownKey says what an unknown key of a file probably meant: the command line's spelling of
// a file's key, or the nearest key of its table.
func unknownKey(k toml.Key) string {
	name := k[len(k)-1]
	table := ""
	if len(k) > 1 {
		table = k[0]
	}
	if table == "" {
		if hint, ok := topLevelHints[strings.ToLower(name)]; ok {
			return "unknown key: " + hint
		}
	}
	if table == "engine" || table == "each" {
		if hint, ok := engineHints[strings.ToLower(name)]; ok {
			return "unknown key: " + hint
		}
	}
	var layout any
	switch table {
	case "":
		layout = file{}
	case "engine", "each":
		layout = engine{}
	case "openings":
		layout = openingsTable{}
	case "adjudication":
		layout = adjudication{}
	case "sprt":
		layout = sprt{}
	}
	if layout != nil {
		if near, ok := driver.ClosestName(name, tomlKeys(layout)); ok {
			return fmt.Sprintf("unknown key: did you mean %s?", near)
		}
	}
	return "unknown key"
}

// The command line's names of settings that a file writes otherwise.
var (
	topLevelHints = map[string]string{
		"maxplies":    "the move limit is max_plies in [adjudication]",
		"max_plies":   "the move limit is max_plies in [adjudication]",
		"maxmoves":    "the move limit is max_moves in [adjudication]",
		"max_moves":   "the move limit is max_moves in [adjudication]",
		"repetitions": "repetitions goes in [adjudication]",
		"json":        "the JSON summary is json_out",
		"pgnout":      "the PGN file is pgn_out",
		"tournament":  "the tournament format is format",
		"each":        "[each] is a table of engine settings",
	}
	engineHints = map[string]string{
		"arg":        `the program's arguments are args = ["-a", "-b"]`,
		"option":     `the engine's options are options = { Name = "value" }`,
		"timemargin": "the margin is margin = SECONDS (in a file, in seconds; fastchess's timemargin= is milliseconds)",
		"st":         `the time control is tc = "st=SECONDS"`,
		"depth":      `the time control is tc = "depth=N"`,
		"nodes":      `the time control is tc = "nodes=N"`,
	}
)

// tomlKeys lists the keys of a table's layout.
func tomlKeys(layout any) []string {
	var keys []string
	t := reflect.TypeOf(layout)
	for i := range t.NumField() {
		if tag := t.Field(i).Tag.Get("toml"); tag != "" && tag != "-" {
			keys = append(keys, tag)
		}
	}
	return keys
}
