package artifact

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/driver"
)

func packed(t *testing.T, src Source) (Manifest, []byte) {
	t.Helper()
	var buf bytes.Buffer
	m, err := Pack(src, &buf)
	if err != nil {
		t.Fatal(err)
	}
	return m, buf.Bytes()
}

// TestPackDeterministic: a directory packs to the same bytes wherever it is and whatever its
// files' times; a changed file, or a changed permission bit, changes the hash.
func TestPackDeterministic(t *testing.T) {
	a := engineDirNoDocs(t)
	m1, bytes1 := packed(t, Source{Path: a, Command: []string{"./engine"}})
	sum := sha256.Sum256(bytes1)
	if m1.SHA256 != hex.EncodeToString(sum[:]) || m1.Size != int64(len(bytes1)) {
		t.Fatalf("manifest %+v does not describe the bytes written", m1)
	}

	b := engineDirNoDocs(t) // the same files, made later, elsewhere
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(b, "engine"), later, later); err != nil {
		t.Fatal(err)
	}
	if m2, _ := packed(t, Source{Path: b, Command: []string{"./engine"}}); m2.SHA256 != m1.SHA256 {
		t.Fatalf("the same tree packs to %s and %s", m1.SHA256, m2.SHA256)
	}

	if err := os.Chmod(filepath.Join(b, "data.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	if m3, _ := packed(t, Source{Path: b, Command: []string{"./engine"}}); m3.SHA256 == m1.SHA256 {
		t.Fatal("a changed mode does not change the hash")
	}
	writeFile(t, a, "data.txt", "other\n", 0o644)
	if m4, _ := packed(t, Source{Path: a, Command: []string{"./engine"}}); m4.SHA256 == m1.SHA256 {
		t.Fatal("a changed file does not change the hash")
	}
}

// engineDirNoDocs is a small engine directory: a native-looking script and data.
func engineDirNoDocs(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	writeFile(t, d, "engine", "#!/bin/sh\necho engine\n", 0o755)
	writeFile(t, d, "data.txt", "data\n", 0o644)
	writeFile(t, d, "sub/weights.bin", "\x00\x01\x02", 0o644)
	return d
}

// TestPackRefuses: a link out of the directory, a program outside it, or a directory without
// a command is not packed.
func TestPackRefuses(t *testing.T) {
	outLink := engineDirNoDocs(t)
	if err := os.Symlink("/etc/passwd", filepath.Join(outLink, "passwd")); err != nil {
		t.Fatal(err)
	}
	upLink := engineDirNoDocs(t)
	if err := os.Symlink("../x", filepath.Join(upLink, "sub", "up2")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../x", filepath.Join(upLink, "sub", "up")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		src  Source
		want string
	}{
		{"absolute link", Source{Path: outLink, Command: []string{"./engine"}}, "outside the directory"},
		{"link up", Source{Path: upLink, Command: []string{"./engine"}}, "outside the directory"},
		{"no command", Source{Path: engineDirNoDocs(t)}, "give the command"},
		{"program outside", Source{Path: engineDirNoDocs(t), Command: []string{"../engine"}}, "not inside"},
		{"unknown platform", Source{Path: writeFile(t, t.TempDir(), "blob", "\x00\x01", 0o755)}, "give it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Pack(tt.src, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestPlatformOf: a native program's platform is read from its header, a script's runtime
// from its #! line.
func TestPlatformOf(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	d := t.TempDir()
	tests := []struct {
		file, platform, interpreter string
	}{
		{exe, runtime.GOOS + "/" + runtime.GOARCH, ""},
		{writeFile(t, d, "a.py", "#!/usr/bin/env python3\nprint()\n", 0o755), AnyPlatform, "python3"},
		{writeFile(t, d, "b.js", "#!/usr/bin/env -S node --no-warnings\n", 0o755), AnyPlatform, "node"},
		{writeFile(t, d, "c.sh", "#!/bin/sh -e\n", 0o755), AnyPlatform, "sh"},
	}
	for _, tt := range tests {
		platform, interpreter, err := platformOf(tt.file)
		if err != nil || platform != tt.platform || interpreter != tt.interpreter {
			t.Errorf("%s: %q %q %v, want %q %q", filepath.Base(tt.file), platform, interpreter, err, tt.platform, tt.interpreter)
		}
	}
	if _, _, err := platformOf(writeFile(t, d, "blob", "hello", 0o644)); !errors.Is(err, errUnknownFormat) {
		t.Errorf("a file of no known format: %v", err)
	}
}

// TestManifestCheck: a manifest from the wire is refused when its hash, kind, file name,
// program or platform could mislead a worker.
func TestManifestCheck(t *testing.T) {
	good := Manifest{SHA256: strings.Repeat("ab", 32), Kind: File, Name: "engine", Size: 3, Platform: "linux/amd64", Command: []string{"./engine"}}
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(*Manifest)
	}{
		{"short hash", func(m *Manifest) { m.SHA256 = "abcd" }},
		{"upper-case hash", func(m *Manifest) { m.SHA256 = strings.Repeat("AB", 32) }},
		{"kind", func(m *Manifest) { m.Kind = "zip" }},
		{"file name with a path", func(m *Manifest) { m.Name = "../engine" }},
		{"no file name", func(m *Manifest) { m.Name = "" }},
		{"program outside", func(m *Manifest) { m.Command = []string{"../../bin/sh"} }},
		{"absolute program", func(m *Manifest) { m.Command = []string{"/bin/sh"} }},
		{"no command", func(m *Manifest) { m.Command = nil }},
		{"platform", func(m *Manifest) { m.Platform = "linux" }},
		{"negative size", func(m *Manifest) { m.Size = -1 }},
	}
	for _, tt := range tests {
		m := good
		m.Command = slices.Clone(good.Command)
		tt.change(&m)
		if err := m.Check(); err == nil {
			t.Errorf("%s: %+v accepted", tt.name, m)
		}
	}
}

// TestRunnable: a host runs an artifact built for its platform, or for any, when it has the
// runtime the artifact needs; otherwise it says why not.
func TestRunnable(t *testing.T) {
	linux := Host{Platform: "linux/amd64", Runtimes: []string{"node", "python3"}}
	bare := Host{Platform: "linux/arm64"}
	tests := []struct {
		name     string
		host     Host
		platform string
		runtime  string
		reason   string // empty: runnable
	}{
		{"native, same platform", linux, "linux/amd64", "", ""},
		{"native, other arch", linux, "linux/arm64", "", "built for linux/arm64, and this worker is linux/amd64"},
		{"native, other os", linux, "windows/amd64", "", "built for windows/amd64"},
		{"script with its runtime", linux, AnyPlatform, "python3", ""},
		{"script without its runtime", bare, AnyPlatform, "python3", "needs python3, and this worker's runtimes are none"},
		{"script, another runtime", linux, AnyPlatform, "java", "needs java, and this worker's runtimes are [node python3]"},
		{"native with a runtime", bare, "linux/arm64", "sh", "needs sh"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.host.Runnable(Manifest{SHA256: strings.Repeat("0", 64), Platform: tt.platform, Runtime: tt.runtime})
			if tt.reason == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			nr, ok := errors.AsType[*NotRunnableError](err)
			if !ok || !strings.Contains(nr.Reason, tt.reason) {
				t.Fatalf("got %v, want a *NotRunnableError saying %q", err, tt.reason)
			}
		})
	}
}

// TestThisHost: this machine's platform is Go's, and its runtimes are those on its PATH and
// those where #! lines name them (/bin, /usr/bin), which the system runs whatever the PATH.
func TestThisHost(t *testing.T) {
	path := t.TempDir()
	writeFile(t, path, "python3", "#!/bin/sh\n", 0o755)
	writeFile(t, path, "ruby", "#!/bin/sh\n", 0o755)
	writeFile(t, path, "node", "not executable", 0o644)
	t.Setenv("PATH", path)
	if runtime.GOOS == "windows" {
		t.Skip("the fake runtimes are shell scripts")
	}
	want := []string{"python3", "ruby"}
	for _, r := range []string{"node", "sh", "bash", "java"} {
		for _, dir := range []string{"/bin", "/usr/bin"} {
			if st, err := os.Stat(filepath.Join(dir, r)); err == nil && st.Mode()&0o111 != 0 && !slices.Contains(want, r) {
				want = append(want, r)
			}
		}
	}
	slices.Sort(want)
	if !slices.Contains(want, "sh") {
		t.Fatal("no /bin/sh here: the test of a runtime at its #! path has nothing to find")
	}
	h := ThisHost("ruby", "java")
	if h.Platform != runtime.GOOS+"/"+runtime.GOARCH || !slices.Equal(h.Runtimes, want) {
		t.Fatalf("this host: %+v, want runtimes %v", h, want)
	}
}

// TestFromEngine: what submit packs for an engine as arbiter match would start it.
func TestFromEngine(t *testing.T) {
	d := engineDirNoDocs(t)
	exe := filepath.Join(d, "engine")
	tests := []struct {
		name    string
		e       driver.EngineConfig
		want    Source
		failure string
	}{
		{name: "program file", e: driver.EngineConfig{Command: []string{exe, "-x"}}, want: Source{Path: exe, Command: []string{exe, "-x"}}},
		{name: "runtime in a directory", e: driver.EngineConfig{Command: []string{"python3", "bot.py", filepath.Join(d, "data.txt")}, Dir: d},
			want: Source{Path: d, Command: []string{"python3", "bot.py", "./data.txt"}}},
		{name: "program inside, absolute", e: driver.EngineConfig{Command: []string{exe}, Dir: d}, want: Source{Path: d, Command: []string{"./engine"}}},
		{name: "program inside, relative", e: driver.EngineConfig{Command: []string{"sub/../engine"}, Dir: d}, want: Source{Path: d, Command: []string{"./engine"}}},
		{name: "argument outside stays", e: driver.EngineConfig{Command: []string{"node", "/etc/hosts"}, Dir: d}, want: Source{Path: d, Command: []string{"node", "/etc/hosts"}}},
		{name: "program outside", e: driver.EngineConfig{Command: []string{"/usr/bin/python3", "bot.py"}, Dir: d}, failure: "not inside dir="},
		{name: "runtime without a directory", e: driver.EngineConfig{Command: []string{"python3", "bot.py"}}, failure: "give dir="},
		{name: "a player over TCP", e: driver.EngineConfig{Addr: "localhost:9000"}, failure: "addr="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FromEngine(tt.e)
			if tt.failure != "" {
				if err == nil || !strings.Contains(err.Error(), tt.failure) {
					t.Fatalf("got %+v, %v; want an error saying %q", got, err, tt.failure)
				}
				return
			}
			if err != nil || got.Path != tt.want.Path || !slices.Equal(got.Command, tt.want.Command) {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestEngineFromArtifact: a run's engine becomes the artifact's command, run from the cache
// with its program's absolute path; the run's other settings stay, and an engine that runs
// another program than its artifact's is refused.
func TestEngineFromArtifact(t *testing.T) {
	m := Manifest{SHA256: strings.Repeat("1", 64), Kind: Dir, Platform: "linux/amd64", Command: []string{"./bin/engine", "-book", "book.txt"}}
	submitted := driver.EngineConfig{Name: "new", Command: []string{"/home/me/new/bin/engine", "-book", "book.txt"}, Dir: "/home/me/new",
		Options: []driver.EngineOption{{Name: "Hash", Value: "64"}}, Env: []string{"A=1"}}
	run := RunEngine(submitted, m)
	if run.Dir != "" || !slices.Equal(run.Command, m.Command) || len(run.Options) != 1 || run.Env[0] != "A=1" {
		t.Fatalf("the run's engine: %+v", run)
	}
	f := Fetched{Manifest: m, Dir: "/cache/111", Command: []string{"/cache/111/bin/engine", "-book", "book.txt"}}
	worker, err := f.Engine(run)
	if err != nil {
		t.Fatal(err)
	}
	if worker.Dir != f.Dir || !slices.Equal(worker.Command, f.Command) || worker.Options[0].Value != "64" {
		t.Fatalf("the worker's engine: %+v", worker)
	}
	run.Command[0] = "./bin/other"
	if _, err := f.Engine(run); err == nil {
		t.Fatal("an engine that runs another program than its artifact's was accepted")
	}
}

// TestCheckOverride: a worker's own -engine stands in for an artifact only when it packs to
// the same SHA-256: the same program file, or a directory with the same files and modes.
func TestCheckOverride(t *testing.T) {
	d := engineDirNoDocs(t)
	exe := filepath.Join(d, "engine")
	fileArtifact, _ := packed(t, Source{Path: exe})
	dirArtifact, _ := packed(t, Source{Path: d, Command: []string{"./engine"}})

	copyDir := engineDirNoDocs(t)
	if err := CheckOverride(fileArtifact, driver.EngineConfig{Name: "new", Command: []string{filepath.Join(copyDir, "engine")}}); err != nil {
		t.Fatalf("the same program elsewhere: %v", err)
	}
	if err := CheckOverride(dirArtifact, driver.EngineConfig{Name: "new", Command: []string{"./engine"}, Dir: copyDir}); err != nil {
		t.Fatalf("the same directory elsewhere: %v", err)
	}

	writeFile(t, copyDir, "stray.log", "x", 0o644)
	other := writeFile(t, t.TempDir(), "engine", "#!/bin/sh\necho patched\n", 0o755)
	for _, tt := range []struct {
		name  string
		m     Manifest
		local driver.EngineConfig
	}{
		{"another program", fileArtifact, driver.EngineConfig{Command: []string{other}}},
		{"a directory with one more file", dirArtifact, driver.EngineConfig{Command: []string{"./engine"}, Dir: copyDir}},
		{"a file for a directory", dirArtifact, driver.EngineConfig{Command: []string{exe}}},
		{"a runtime on the PATH only", fileArtifact, driver.EngineConfig{Command: []string{"python3", "bot.py"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.local.Name = "new"
			err := CheckOverride(tt.m, tt.local)
			if mm, ok := errors.AsType[*OverrideMismatchError](err); !ok || mm.Artifact != tt.m.SHA256 || mm.Engine != "new" {
				t.Fatalf("got %v, want an *OverrideMismatchError", err)
			}
		})
	}
}
