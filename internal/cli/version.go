package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// VersionLine is what "-version" prints: the product and its version, the commit the binary
// was built from and the Go toolchain that built it, as in
//
//	Hive Arbiter 0.1.0 (commit 0123abcd…+dirty, go1.26.0 linux/amd64)
//
// The commit is the vcs.revision that go build stamps in a checkout, with "+dirty" when the
// tree had changes; "unknown" when the binary was not built from a checkout (go test,
// go build -buildvcs=false, a source archive), unless a release build stamped one.
func VersionLine(product, version string) string {
	info, _ := debug.ReadBuildInfo()
	return versionLine(product, version, info, stampedCommit)
}

// stampedCommit is the commit (with "+dirty" if so) that a release build stamps with
// -ldflags "-X hivearbiter/internal/cli.stampedCommit=...", for the builds go build stamps no
// vcs.revision in: a git worktree, where .git is a file, is one.
var stampedCommit string

// versionLine is VersionLine with the build information given (nil when the binary has none)
// and the stamped commit ("" when none).
func versionLine(product, version string, info *debug.BuildInfo, stamped string) string {
	commit, dirty, goVersion := "unknown", false, runtime.Version()
	if info != nil {
		if info.GoVersion != "" {
			goVersion = info.GoVersion
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	switch {
	case dirty && commit != "unknown":
		commit += "+dirty"
	case commit == "unknown" && stamped != "":
		commit = stamped
	}
	return fmt.Sprintf("%s %s (commit %s, %s %s/%s)", product, version, commit, goVersion, runtime.GOOS, runtime.GOARCH)
}
