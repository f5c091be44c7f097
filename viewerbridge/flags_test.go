package viewerbridge

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hivearbiter/internal/cli"
	_ "hivearbiter/proto/uhp" // the default protocol, which configs checks engines against
)

// TestServeFlagsOverTheFile: serve's flags override the file's settings, engines given by
// flags replace the file's, an engine with no limit gets DefaultTime, and there must be
// exactly two engines.
func TestServeFlagsOverTheFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "serve.toml")
	os.WriteFile(file, []byte("out = \"file.jsonl\"\nevent = \"From the file\"\n[[engine]]\ncmd = \"a\"\ntc = \"st=2\"\n[[engine]]\ncmd = \"b\"\ntc = \"st=2\"\n"), 0o644)
	tests := []struct {
		name                      string
		args                      []string
		out, event, pgn, limit, b string
		side                      RemoteSide
		err                       string
	}{
		{"the file", []string{"-config", file}, "file.jsonl", "From the file", "", "st=2", "b", "alternate", ""},
		{"flags over the file", []string{"-config", file, "-out", "o.jsonl", "-event", "E", "-pgnout", "file=g.pgn", "-remote-side", "white"},
			"o.jsonl", "E", "g.pgn", "st=2", "b", "white", ""},
		{"engines over the file", []string{"-config", file, "-engine", "cmd=x", "-engine", "cmd=y"}, "file.jsonl", "From the file", "", DefaultTime, "y", "alternate", ""},
		{"each's limit", []string{"-engine", "cmd=x", "-engine", "cmd=y", "-each", "depth=3"}, "", "", "", "depth=3", "y", "alternate", ""},
		{"one engine", []string{"-engine", "cmd=x"}, "", "", "", "", "", "", "configs: serve needs exactly two engines, White's then Black's, not 1"},
		{"no engines", nil, "", "", "", "", "", "", "configs: serve needs exactly two engines, White's then Black's, not 0"},
		{"a setting as PGN file", []string{"-engine", "cmd=x", "-engine", "cmd=y", "-pgnout", "append=true"}, "", "", "", "", "", "", "configs: -pgnout append=true: give the PGN file's name"},
		{"a stray argument", []string{"-engine", "cmd=x", "stray"}, "", "", "", "", "", "", `configs: unexpected argument "stray"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rest, groups := cli.SplitMultiWord(tc.args, "engine", "each")
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var sf Flags
			sf.Register(fs)
			if err := cli.Parse(fs, rest); err != nil {
				t.Fatal(err)
			}
			cfg, err := sf.Session(groups, nil)
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
