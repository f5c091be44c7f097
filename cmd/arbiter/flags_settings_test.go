package main

import (
	"flag"
	"io"
	"reflect"
	"testing"
	"time"

	"hivearbiter/distributed"
	"hivearbiter/pool"
	"hivearbiter/report"
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
