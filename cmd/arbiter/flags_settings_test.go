package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"hivearbiter/configs"
	"hivearbiter/distributed"
	"hivearbiter/pool"
	"hivearbiter/report"
	"hivearbiter/tune"
	"hivearbiter/viewerbridge"
)

// TestSettingsFlags: each command's flags set the package settings they name, over the
// package's defaults; with neither -listen nor -nats a run is not served.
func TestSettingsFlags(t *testing.T) {
	tests := []struct {
		name string
		bind func(*flag.FlagSet) any // binds the flags, and returns the settings they set
		args []string
		want any
	}{
		{"host: none", func(fs *flag.FlagSet) any { var h distributed.HostConfig; bindHost(fs, &h); return &h },
			nil, &distributed.HostConfig{AckWait: distributed.DefaultAckWait}},
		{"host: listen", func(fs *flag.FlagSet) any { var h distributed.HostConfig; bindHost(fs, &h); return &h },
			[]string{"-listen", "127.0.0.1:4222", "-ackwait", "5s"}, &distributed.HostConfig{Listen: "127.0.0.1:4222", AckWait: 5 * time.Second}},
		{"host: nats", func(fs *flag.FlagSet) any { var h distributed.HostConfig; bindHost(fs, &h); return &h },
			[]string{"-nats", "nats://h:4222", "-creds", "c.creds"}, &distributed.HostConfig{URL: "nats://h:4222", CredsFile: "c.creds", AckWait: distributed.DefaultAckWait}},
		{"pages", func(fs *flag.FlagSet) any { var o report.RunOptions; bindPages(fs, &o); return &o },
			[]string{"-report", "r.html", "-http", "0.0.0.0:8080", "-http-public"}, &report.RunOptions{File: "r.html", HTTP: "0.0.0.0:8080", Public: true}},
		{"pool server", func(fs *flag.FlagSet) any { var c pool.Config; bindPoolServer(fs, &c); return &c },
			[]string{"-dir", "pool", "-nats", "nats://h:4222", "-batch", "2m"},
			&pool.Config{Dir: "pool", Listen: "127.0.0.1:4222", NATS: "nats://h:4222", AckWait: distributed.DefaultAckWait, Batch: 2 * time.Minute,
				People: pool.PeopleConfig{MaxActive: pool.DefaultMaxActive}}},
		{"pool people", func(fs *flag.FlagSet) any { var c pool.Config; bindPoolServer(fs, &c); return &c.People },
			[]string{"-require-token", "-approve-runs", "-max-runs", "-1", "-http-secure-cookies"},
			&pool.PeopleConfig{RequireToken: true, ApproveRuns: true, MaxActive: -1, SecureCookies: true}},
		{"submission", func(fs *flag.FlagSet) any { var f pool.SubmitFlags; bindSubmission(fs, &f, false); return &f },
			[]string{"-creds", "s.creds", "-priority", "2", "-share", "0.5", "-platform", "linux/amd64,darwin/arm64", "-scale-nps", "1000"},
			&pool.SubmitFlags{Creds: "s.creds", Priority: 2, Share: 0.5, Platforms: "linux/amd64,darwin/arm64", ScaleNPS: 1000, ScaleBy: pool.ScaleByBase}},
		{"submission of a tune", func(fs *flag.FlagSet) any { var f pool.SubmitFlags; bindSubmission(fs, &f, true); return &f },
			[]string{"-token-file", "t"}, &pool.SubmitFlags{Share: 1, TokenFile: "t", ScaleBy: pool.ScaleByBase}},
		{"serve: none", func(fs *flag.FlagSet) any { return bindServe(fs) }, nil, &viewerbridge.Flags{RemoteSide: "alternate"}},
		{"serve", func(fs *flag.FlagSet) any { return bindServe(fs) },
			[]string{"-config", "s.toml", "-out", "o.jsonl", "-pgnout", "g.pgn", "-transcripts", "t", "-gametype", "Base", "-remote-side", "white", "-event", "E"},
			&viewerbridge.Flags{ConfigFile: "s.toml", Out: "o.jsonl", PGNOut: "g.pgn", Transcripts: "t", GameType: "Base", RemoteSide: "white", Event: "E"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			got := tc.bind(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%q: %+v, want %+v", tc.args, got, tc.want)
			}
		})
	}
	var h distributed.HostConfig
	if h.Serving() || !(&distributed.HostConfig{URL: "nats://h"}).Serving() || !(&distributed.HostConfig{Listen: ":4222"}).Serving() {
		t.Error("Serving: want true with -listen or -nats, false with neither")
	}
}

// TestTuneFlags: the tune the demonstration's file describes is the one its command line
// (docs/tuning.md) gives, and a flag given overrides the file's setting where one not given
// does not.
func TestTuneFlags(t *testing.T) {
	const file = "../../configs/tune/hivebot.toml"
	parse := func(args ...string) tune.Config {
		t.Helper()
		cfg, err := parseTune(newFlagSet("tune", tuneUsage, io.Discard), args)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	fromFile := parse("-config", file)
	fromFlags := parse("-engine", "builtin=hivebot", "name=hivebot", "depth=3", "-openings", "plies=4", "order=random",
		"-param", "InPlayAnt,8,0,128,6,0.015", "-param", "EnemyNeighbor,8,0,144,6,0.015",
		"-param", "Surround5,10,0,280,12,0.015", "-param", "FreeFriend,40,0,48,4,0.015",
		"-iterations", "1500", "-gametype", "Base+MLP", "-concurrency", "2", "-seed", "26", "-out", "tune-hivebot.jsonl")
	if !reflect.DeepEqual(fromFile, fromFlags) {
		t.Errorf("from the file:\n%+v\nfrom the flags:\n%+v", fromFile, fromFlags)
	}
	over := parse("-config", file, "-iterations", "30", "-seed", "4", "-gamma", "0.2", "-A", "2", "-maxplies", "80", "-start-timeout", "3")
	if over.Gains != (tune.Gains{Iterations: 30, A: 2, Alpha: tune.DefaultAlpha, Gamma: 0.2}) || over.Seed != 4 || over.Concurrency != 2 || len(over.Params) != 4 ||
		over.Adjudication.MaxPlies != 80 || over.StartTimeout != 3*time.Second || over.Out != "tune-hivebot.jsonl" {
		t.Errorf("-config with flags over it: gains %+v, seed %d, concurrency %d, %d params, %+v, start %v, out %q",
			over.Gains, over.Seed, over.Concurrency, len(over.Params), over.Adjudication, over.StartTimeout, over.Out)
	}
	if _, err := parseTune(newFlagSet("tune", tuneUsage, io.Discard), []string{"-config", file, "-A", "-1"}); err == nil ||
		!strings.Contains(err.Error(), "-A -1: not a valid value (want a number of at least 0)") {
		t.Errorf("-A -1: %v, want it refused", err)
	}
}

// TestMatchFlagsOverTheFile: a flag overrides the file's key, the move limit in either unit; what
// neither gives gets the defaults; a problem names the flag that gave the value; a flag spelled
// as the file or fastchess spells it is that flag.
func TestMatchFlagsOverTheFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "run.toml")
	os.WriteFile(file, []byte("rounds = 2\n[adjudication]\nmax_moves = 150\n[each]\ntc = \"st=1\"\n[[engine]]\ncmd = \"a\"\n[[engine]]\ncmd = \"b\"\n"), 0o644)
	engines := []string{"-engine", "cmd=a", "-engine", "cmd=b", "-each", "st=1"}
	tests := []struct {
		name            string
		args            []string
		rounds, plies   int
		openings, games int
		err             string
	}{
		{"the file", []string{"-config", file}, 2, 300, configs.DefaultOpeningPlies, 2, ""},
		{"rounds over the file", []string{"-config", file, "-rounds", "5"}, 5, 300, configs.DefaultOpeningPlies, 2, ""},
		{"plies over moves", []string{"-config", file, "-maxplies", "31"}, 2, 31, configs.DefaultOpeningPlies, 2, ""},
		{"no file", append([]string{"-openings", "plies=2", "-repeat"}, engines...), 1, 2 * configs.DefaultMaxMoves, 2, 2, ""},
		{"TOML spelling", append([]string{"-max_moves", "10"}, engines...), 1, 20, configs.DefaultOpeningPlies, 2, ""},
		{"format alias", append([]string{"-tournament", "gauntlet", "-seeds", "1"}, engines...), 1, 400, configs.DefaultOpeningPlies, 2, ""},
		{"bad flag value", append([]string{"-rounds", "0"}, engines...), 0, 0, 0, 0, "configs: -rounds 0: want 1 or more"},
		{"bad value in the file", []string{"-config", file, "-games", "3"}, 0, 0, 0, 0, "configs: -games 3: want 2"},
		{"no engines", nil, 0, 0, 0, 0, "configs: no engines: give -config FILE"},
		{"a stray argument", append([]string{"stray"}, engines...), 0, 0, 0, 0, `configs: unexpected argument "stray"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := matchConfig(tc.args, io.Discard)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Rounds != tc.rounds || cfg.Adjudication.MaxPlies != tc.plies || cfg.Openings.RandomPlies != tc.openings || cfg.GamesPerPairing != tc.games {
				t.Errorf("rounds %d, %d plies, openings of %d plies, %d games; want %d, %d, %d, %d", cfg.Rounds, cfg.Adjudication.MaxPlies,
					cfg.Openings.RandomPlies, cfg.GamesPerPairing, tc.rounds, tc.plies, tc.openings, tc.games)
			}
		})
	}
}
