package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestVersionLine: the commit comes from vcs.revision, "+dirty" when vcs.modified says so,
// and "unknown" when the build has no revision (go test, -buildvcs=false) or no build
// information at all, unless a release build stamped a commit, which vcs.revision overrides.
func TestVersionLine(t *testing.T) {
	const rev = "bf81dc9a0c6e3b1f2d4a5e6f708192a3b4c5d6e7"
	platform := runtime.GOOS + "/" + runtime.GOARCH
	setting := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name    string
		info    *debug.BuildInfo
		stamped string
		want    string
	}{
		{"clean checkout", &debug.BuildInfo{GoVersion: "go1.26.0", Settings: setting("vcs", "git", "vcs.revision", rev, "vcs.modified", "false")}, "",
			"Hive Arbiter 0.2.0 (commit " + rev + ", go1.26.0 " + platform + ")"},
		{"a checkout and a stamp", &debug.BuildInfo{GoVersion: "go1.26.0", Settings: setting("vcs.revision", rev, "vcs.modified", "false")}, "0123456789ab",
			"Hive Arbiter 0.2.0 (commit " + rev + ", go1.26.0 " + platform + ")"},
		{"a worktree and a stamp", &debug.BuildInfo{GoVersion: "go1.26.0"}, rev + "+dirty",
			"Hive Arbiter 0.2.0 (commit " + rev + "+dirty, go1.26.0 " + platform + ")"},
		{"modified checkout", &debug.BuildInfo{GoVersion: "go1.26.0", Settings: setting("vcs.revision", rev, "vcs.modified", "true")}, "",
			"Hive Arbiter 0.2.0 (commit " + rev + "+dirty, go1.26.0 " + platform + ")"},
		{"no checkout", &debug.BuildInfo{GoVersion: "go1.26.0", Settings: setting("-trimpath", "true")}, "",
			"Hive Arbiter 0.2.0 (commit unknown, go1.26.0 " + platform + ")"},
		{"modified but no revision", &debug.BuildInfo{GoVersion: "go1.26.0", Settings: setting("vcs.modified", "true")}, "",
			"Hive Arbiter 0.2.0 (commit unknown, go1.26.0 " + platform + ")"},
		{"no build information", nil, "",
			"Hive Arbiter 0.2.0 (commit unknown, " + runtime.Version() + " " + platform + ")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionLine("Hive Arbiter", "0.2.0", tt.info, tt.stamped); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
