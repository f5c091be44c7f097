package viewerbridge

import (
	"flag"
	"fmt"

	"hivearbiter/arbiter/driver"
	"hivearbiter/configs"
)

// DefaultTime is the time control of a served engine given none: the viewer usually sets
// the limit, so this serves bare "bestmove" commands and the replies of a remote game.
const DefaultTime = "st=1"

// Flags are the settings of "arbiter serve" on the command line: Register defines them on a
// FlagSet, and after the FlagSet is parsed Session lays those given over the -config file's
// settings (read by package configs, as tune's flags are: the front end owns its flags).
type Flags struct {
	fs                                                *flag.FlagSet
	config, out, pgnOut, transcripts, gameType, event string
	remoteSide                                        string
}

// Register defines the flags on fs. -engine and -each are defined for their -h text only:
// their words are the caller's to collect (see Session).
func (sf *Flags) Register(fs *flag.FlagSet) {
	sf.fs = fs
	fs.StringVar(&sf.config, "config", "", "TOML configuration `file` with two engines (see configs/)")
	fs.StringVar(&sf.out, "out", "", "JSON Lines `file` of game records (default arbiter-serve-<run>.jsonl)")
	fs.StringVar(&sf.pgnOut, "pgnout", "", "append every game to this PGN `file` (MzingaViewer format)")
	fs.StringVar(&sf.transcripts, "transcripts", "", "write each engine's conversation to a file in this `dir`")
	fs.StringVar(&sf.gameType, "gametype", "", "GameTypeString of a remote game whose viewer names none (default: every expansion both engines play)")
	fs.StringVar(&sf.remoteSide, "remote-side", "alternate", "the viewer's side in a remote game that names none: white, black or alternate")
	fs.StringVar(&sf.event, "event", "", "event name for the PGN")
	fs.Func("each", "engine settings applied to both engines (key=value words)", func(string) error { return nil })
	fs.Func("engine", "an engine (key=value words); give two, White's first", func(string) error { return nil })
}

// ConfigFile is the -config flag's file ("" when not given).
func (sf *Flags) ConfigFile() string { return sf.config }

// Session reads the -config file, if one was given, and lays the flags given over its
// settings. groups are the words of -engine and -each, one list per use (see configs.Engines);
// an engine with no time control gets DefaultTime. The engines given by flags replace the
// file's, and there must be two, White's then Black's.
func (sf *Flags) Session(groups map[string][][]string, resolve configs.Resolver) (SessionConfig, error) {
	var cfg SessionConfig
	if sf.fs.NArg() > 0 {
		return cfg, &configs.Error{Msg: fmt.Sprintf("unexpected argument %q (engine settings follow -engine)", sf.fs.Arg(0))}
	}
	var engines []driver.EngineConfig
	if sf.config != "" {
		file, err := configs.LoadFile(sf.config, resolve)
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
	if sf.pgnOut != "" {
		name, err := configs.PGNFile(sf.pgnOut)
		if err != nil {
			return cfg, err
		}
		cfg.PGNOut = name
	}
	for dst, v := range map[*string]string{&cfg.Out: sf.out, &cfg.TranscriptDir: sf.transcripts, &cfg.GameType: sf.gameType, &cfg.Event: sf.event} {
		if v != "" {
			*dst = v
		}
	}
	cfg.RemoteSide = RemoteSide(sf.remoteSide)
	return cfg, nil
}
