package viewerbridge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "hivearbiter/proto/uhp" // the default protocol, which configs checks engines against
)

// TestServeFlagsOverTheFile: serve's flags override the file's settings, engines given by
// flags replace the file's, an engine with no limit gets DefaultTime, and there must be
// exactly two engines. (The flags that set Flags are the command's: cmd/arbiter's
// TestSettingsFlags.)
func TestServeFlagsOverTheFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "serve.toml")
	os.WriteFile(file, []byte("out = \"file.jsonl\"\nevent = \"From the file\"\n[[engine]]\ncmd = \"a\"\ntc = \"st=2\"\n[[engine]]\ncmd = \"b\"\ntc = \"st=2\"\n"), 0o644)
	two := [][]string{{"cmd=x"}, {"cmd=y"}}
	with := func(f func(*Flags)) Flags {
		sf := DefaultFlags()
		f(&sf)
		return sf
	}
	fromFile := with(func(sf *Flags) { sf.ConfigFile = file })
	tests := []struct {
		name                      string
		flags                     Flags
		engine, each              [][]string
		out, event, pgn, limit, b string
		side                      RemoteSide
		err                       string
	}{
		{"the file", fromFile, nil, nil, "file.jsonl", "From the file", "", "st=2", "b", "alternate", ""},
		{"flags over the file", with(func(sf *Flags) {
			*sf = Flags{ConfigFile: file, Out: "o.jsonl", Event: "E", PGNOut: "file=g.pgn", RemoteSide: "white"}
		}), nil, nil,
			"o.jsonl", "E", "g.pgn", "st=2", "b", "white", ""},
		{"engines over the file", fromFile, two, nil, "file.jsonl", "From the file", "", DefaultTime, "y", "alternate", ""},
		{"each's limit", DefaultFlags(), two, [][]string{{"depth=3"}}, "", "", "", "depth=3", "y", "alternate", ""},
		{"one engine", DefaultFlags(), two[:1], nil, "", "", "", "", "", "", "configs: serve needs exactly two engines, White's then Black's, not 1"},
		{"no engines", DefaultFlags(), nil, nil, "", "", "", "", "", "", "configs: serve needs exactly two engines, White's then Black's, not 0"},
		{"a setting as PGN file", with(func(sf *Flags) { sf.PGNOut = "append=true" }), two, nil, "", "", "", "", "", "", "configs: -pgnout append=true: give the PGN file's name"},
		{"a stray argument", with(func(sf *Flags) { sf.Args = []string{"stray"} }), two[:1], nil, "", "", "", "", "", "", `configs: unexpected argument "stray"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := tc.flags.Session(map[string][][]string{"engine": tc.engine, "each": tc.each}, nil)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Errorf("error %v, want %q...", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Out != tc.out || cfg.Event != tc.event || cfg.PGNOut != tc.pgn || cfg.RemoteSide != tc.side {
				t.Errorf("out %q event %q pgn %q side %q; want %q %q %q %q", cfg.Out, cfg.Event, cfg.PGNOut, cfg.RemoteSide, tc.out, tc.event, tc.pgn, tc.side)
			}
			if got := cfg.Engines[0].Time.String(); got != tc.limit {
				t.Errorf("White's limit %q, want %q", got, tc.limit)
			}
			if got := cfg.Engines[1].Command[0]; got != tc.b {
				t.Errorf("Black's program %q, want %q", got, tc.b)
			}
		})
	}
}
