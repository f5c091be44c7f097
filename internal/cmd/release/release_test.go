package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// stageTree writes a release folder root/base with a binary (mode 0755) and two text files.
func stageTree(t *testing.T) (root, base string, want map[string]string) {
	t.Helper()
	root, base = t.TempDir(), "arbiter-1.2.3-os-arch"
	want = map[string]string{
		base + "/arbiter":                  "\x7fELF binary",
		base + "/README.md":                "# Hive Arbiter\n",
		base + "/licenses/go/LICENSE":      "Copyright (c) 2009 The Go Authors.\n",
		base + "/licenses/example.org/m/N": "",
	}
	for name, content := range want {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, "/arbiter") {
			mode = 0o755
		}
		if err := os.WriteFile(path, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	return root, base, want
}

// TestArchives: the tar.gz and the zip hold every file of the staged folder under its
// top-level name, with its content, and the binary stays executable.
func TestArchives(t *testing.T) {
	root, base, want := stageTree(t)
	out := t.TempDir()
	tgz, zipPath := filepath.Join(out, base+".tar.gz"), filepath.Join(out, base+".zip")
	if err := writeTarGz(tgz, root, base); err != nil {
		t.Fatal(err)
	}
	if err := writeZip(zipPath, root, base); err != nil {
		t.Fatal(err)
	}
	for path, files := range map[string]map[string]archived{tgz: readTarGz(t, tgz), zipPath: readZip(t, zipPath)} {
		if len(files) != len(want) {
			t.Errorf("%s holds %d files, want %d: %v", filepath.Base(path), len(files), len(want), files)
		}
		for name, content := range want {
			got, ok := files[name]
			switch {
			case !ok:
				t.Errorf("%s has no %s", filepath.Base(path), name)
			case got.content != content:
				t.Errorf("%s: %s holds %q, want %q", filepath.Base(path), name, got.content, content)
			case strings.HasSuffix(name, "/arbiter") && got.mode&0o111 == 0:
				t.Errorf("%s: %s has mode %v, not executable", filepath.Base(path), name, got.mode)
			}
		}
	}
}

// archived is one file read back from an archive.
type archived struct {
	content string
	mode    os.FileMode
}

func readTarGz(t *testing.T, path string) map[string]archived {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]archived{}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[hdr.Name] = archived{string(data), hdr.FileInfo().Mode()}
	}
}

func readZip(t *testing.T, path string) map[string]archived {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	files := map[string]archived{}
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name] = archived{string(data), f.Mode()}
	}
	return files
}

// TestWriteSums: SHA256SUMS has a "HEX  NAME" line per archive, sorted by name, as sha256sum -c
// reads them.
func TestWriteSums(t *testing.T) {
	out := t.TempDir()
	contents := map[string]string{"b.zip": "zip bytes", "a.tar.gz": "tar bytes"}
	for name, content := range contents {
		if err := os.WriteFile(filepath.Join(out, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeSums(out, []string{"b.zip", "a.tar.gz"}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%x  a.tar.gz\n%x  b.zip\n", sha256.Sum256([]byte("tar bytes")), sha256.Sum256([]byte("zip bytes")))
	if string(got) != want {
		t.Errorf("SHA256SUMS:\n%s\nwant:\n%s", got, want)
	}
}

// TestLicenceFiles: the files that carry licence terms are found in any case and with any
// extension; other files and folders are not.
func TestLicenceFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"LICENSE", "licence.md", "COPYING.txt", "NOTICE", "PATENTS", "README.md", "LICENSES.go", "main.go"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "license"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := licenceFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"COPYING.txt", "LICENSE", "NOTICE", "PATENTS", "licence.md"}
	if !slices.Equal(got, want) {
		t.Errorf("licenceFiles = %q, want %q", got, want)
	}
	if err := copyLicenceFiles(filepath.Join(t.TempDir(), "m"), filepath.Join(dir, "license")); !errors.Is(err, errNoLicence) {
		t.Errorf("a module without a licence: %v, want errNoLicence", err)
	}
}

// TestUnknownPlatform: a platform the release does not make, or no version, is refused
// before anything is built.
func TestUnknownPlatform(t *testing.T) {
	out := filepath.Join(t.TempDir(), "dist")
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"-version", "1.0.0", "-o", out, "linux/amd64", "plan9/386"}, io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error(), `unknown platform "plan9/386"`) {
		t.Errorf("run: %v, want an unknown platform", err)
	}
	err = run(context.Background(), []string{"-o", out, "linux/amd64"}, io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error(), "-version") {
		t.Errorf("run without -version: %v, want it asked for", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the output folder was made: %v", err)
	}
}

// TestTopFiles: every archive carries the repository's README.md and LICENSE (MIT, the Hive
// Arbiter authors'), and a repository without one of them makes no archive.
func TestTopFiles(t *testing.T) {
	dir := t.TempDir()
	if err := copyTopFiles(dir, "../../.."); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"README.md", "LICENSE"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("../../..", name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("the archive's %s differs from the repository's", name)
		}
	}
	licence, _ := os.ReadFile(filepath.Join(dir, "LICENSE"))
	if !strings.HasPrefix(string(licence), "MIT License\n") || !strings.Contains(string(licence), "The Hive Arbiter authors") {
		t.Errorf("LICENSE is not the MIT licence of the Hive Arbiter authors:\n%s", licence)
	}

	bare := t.TempDir()
	if err := os.WriteFile(filepath.Join(bare, "README.md"), []byte("# readme\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := copyTopFiles(t.TempDir(), bare)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "LICENSE") {
		t.Errorf("without a LICENSE: %v; want an error naming LICENSE", err)
	}
}
