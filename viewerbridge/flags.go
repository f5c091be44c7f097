package viewerbridge

import (
	"fmt"

	"hivearbiter/arbiter/driver"
	"hivearbiter/configs"
)

// DefaultTime is the time control of a served engine given none: the viewer usually sets
// the limit, so this serves bare "bestmove" commands and the replies of a remote game.
const DefaultTime = "st=1"

// Flags are the settings of "arbiter serve" as its command line gives them (the command
// binds its flags to them, DefaultFlags holding their defaults): Session lays those given
// over the -config file's settings (read by package configs, as tune's are).
type Flags struct {
	ConfigFile  string // -config: a TOML file with two engines ("" for none)
	Out         string // -out: the records file
	PGNOut      string // -pgnout: the PGN file, or fastchess's file=NAME
	Transcripts string // -transcripts: the directory of the engines' conversations
	GameType    string // -gametype of a remote game whose viewer names none
	Event       string // -event: the PGN's event name
	RemoteSide  string // -remote-side: white, black or alternate
	// Args are the command line's positional arguments: serve takes none.
	Args []string
}

// DefaultFlags are serve's settings given no flags: in a remote game that names none, the
// viewer's side alternates.
func DefaultFlags() Flags { return Flags{RemoteSide: string(RemoteAlternate)} }

// Session reads the -config file, if one was given, and lays the settings given over its
// settings. groups are the words of -engine and -each, one list per use (see configs.Engines);
// an engine with no time control gets DefaultTime. The engines given by flags replace the
// file's, and there must be two, White's then Black's.
func (sf *Flags) Session(groups map[string][][]string, resolve configs.Resolver) (SessionConfig, error) {
	var cfg SessionConfig
	if len(sf.Args) > 0 {
		return cfg, &configs.Error{Msg: fmt.Sprintf("unexpected argument %q (engine settings follow -engine)", sf.Args[0])}
	}
	var engines []driver.EngineConfig
	if sf.ConfigFile != "" {
		file, err := configs.LoadFile(sf.ConfigFile, resolve)
		if err != nil {
			return cfg, err
		}
		engines = file.Engines
		cfg.Out, cfg.PGNOut, cfg.TranscriptDir, cfg.Event = file.Out, file.PGNOut, file.TranscriptDir, file.Event
		cfg.GameType = file.GameType
		cfg.StartTimeout, cfg.CommandTimeout, cfg.DepthTimeout = file.StartTimeout, file.CommandTimeout, file.DepthTimeout
	}
	fromFlags, err := configs.Engines(groups["each"], groups["engine"], []string{DefaultTime}, resolve)
	if err != nil {
		return cfg, err
	}
	if fromFlags != nil {
		engines = fromFlags
	}
	if len(engines) != 2 {
		return cfg, &configs.Error{Msg: fmt.Sprintf("serve needs exactly two engines, White's then Black's, not %d: give -config FILE or two -engine cmd=... (see arbiter serve -h)", len(engines))}
	}
	cfg.Engines = [2]driver.EngineConfig{engines[0], engines[1]}
	if sf.PGNOut != "" {
		name, err := configs.PGNFile(sf.PGNOut)
		if err != nil {
			return cfg, err
		}
		cfg.PGNOut = name
	}
	for dst, v := range map[*string]string{&cfg.Out: sf.Out, &cfg.TranscriptDir: sf.Transcripts, &cfg.GameType: sf.GameType, &cfg.Event: sf.Event} {
		if v != "" {
			*dst = v
		}
	}
	cfg.RemoteSide = RemoteSide(sf.RemoteSide)
	return cfg, nil
}
