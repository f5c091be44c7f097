package artifact

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// entry is one entry of a hand-made archive.
type entry struct {
	name, body, link string
	kind             byte
	mode             int64
}

func file(name, body string) entry {
	return entry{name: name, body: body, kind: tar.TypeReg, mode: 0o644}
}
func link(name, to string) entry {
	return entry{name: name, link: to, kind: tar.TypeSymlink, mode: 0o777}
}
func dir(name string) entry { return entry{name: name, kind: tar.TypeDir, mode: 0o755} }

// tarOf writes entries as a tar stream, as a hostile packer would: names and links unchecked.
func tarOf(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Linkname: e.link, Typeflag: e.kind, Mode: e.mode, Size: int64(len(e.body)), Format: tar.FormatPAX}
		if e.kind != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(tw, e.body); err != nil && h.Size > 0 {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sandbox is an empty root to unpack into, beside a directory that must stay empty.
func sandbox(t testing.TB) (parent, root string) {
	parent = t.TempDir()
	root = filepath.Join(parent, "root")
	for _, d := range []string{root, filepath.Join(parent, "outside")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return parent, root
}

// assertContained fails if unpacking wrote anything outside root, made a link that leads out
// of it, or kept a setuid, setgid or sticky bit.
func assertContained(t testing.TB, parent string) {
	t.Helper()
	root := filepath.Join(parent, "root")
	names, _ := os.ReadDir(parent)
	if len(names) != 2 || names[0].Name() != "outside" || names[1].Name() != "root" {
		t.Fatalf("beside the root: %v", names)
	}
	if out, _ := os.ReadDir(filepath.Join(parent, "outside")); len(out) != 0 {
		t.Fatalf("written outside the root: %v", out)
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != 0 {
			t.Errorf("%s: mode %v", p, info.Mode())
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		if resolved, err := filepath.EvalSymlinks(p); err == nil {
			if rel, err := filepath.Rel(root, resolved); err != nil || !filepath.IsLocal(rel) && rel != "." {
				t.Errorf("link %s leads to %s, outside the root", p, resolved)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestExtractHostile: archives that try to write outside the tree, through a link, or make
// what should not be made are refused with an *UnsafeArchiveError, or bounded with a
// *TooLargeError, and leave nothing outside the root.
func TestExtractHostile(t *testing.T) {
	outsideAbs := func(parent string) string { return filepath.ToSlash(filepath.Join(parent, "outside", "abs")) }
	tests := []struct {
		name    string
		entries func(parent string) []entry
		lim     Limits
		tooBig  bool
	}{
		{name: "dot-dot", entries: func(string) []entry { return []entry{file("../outside/evil", "x")} }},
		{name: "dot-dot inside a name", entries: func(string) []entry { return []entry{file("a/../../outside/evil", "x")} }},
		{name: "absolute name", entries: func(p string) []entry { return []entry{file(outsideAbs(p), "x")} }},
		{name: "backslashes", entries: func(string) []entry { return []entry{file(`..\outside\evil`, "x")} }},
		{name: "no name", entries: func(string) []entry { return []entry{file("", "x")} }},
		{name: "link up", entries: func(string) []entry { return []entry{link("l", "../outside")} }},
		{name: "link up from below", entries: func(string) []entry { return []entry{dir("a/"), link("a/l", "../../outside")} }},
		{name: "absolute link", entries: func(p string) []entry { return []entry{link("l", filepath.Join(p, "outside"))} }},
		{name: "write through a link", entries: func(string) []entry { return []entry{link("l", "."), file("l/x", "x")} }},
		{name: "write through a link, case folded", entries: func(string) []entry { return []entry{link("L", "."), file("l/x", "x")} }},
		{name: "directory below a link", entries: func(string) []entry { return []entry{dir("sub/"), link("l", "sub"), dir("l/d/")} }},
		{name: "same name twice", entries: func(string) []entry { return []entry{file("x", "1"), file("x", "2")} }},
		{name: "link then file of its name", entries: func(string) []entry { return []entry{link("x", "y"), file("x", "2")} }},
		{name: "hard link", entries: func(string) []entry {
			return []entry{{name: "h", link: "/etc/passwd", kind: tar.TypeLink}}
		}},
		{name: "device", entries: func(string) []entry { return []entry{{name: "null", kind: tar.TypeChar, mode: 0o666}} }},
		{name: "fifo", entries: func(string) []entry { return []entry{{name: "p", kind: tar.TypeFifo, mode: 0o644}} }},
		{name: "too many entries", lim: Limits{MaxEntries: 2}, tooBig: true,
			entries: func(string) []entry { return []entry{file("a", ""), file("b", ""), file("c", "")} }},
		{name: "too many bytes", lim: Limits{MaxUnpacked: 10}, tooBig: true,
			entries: func(string) []entry { return []entry{file("a", "123456"), file("b", "123456")} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent, root := sandbox(t)
			err := extract(bytes.NewReader(tarOf(t, tt.entries(parent)...)), root, tt.lim)
			if tt.tooBig {
				if !isTooLarge(err) {
					t.Fatalf("want a *TooLargeError, got %v", err)
				}
			} else if _, ok := errors.AsType[*UnsafeArchiveError](err); !ok {
				t.Fatalf("want an *UnsafeArchiveError, got %v", err)
			}
			assertContained(t, parent)
		})
	}
}

// TestExtractKeeps: what a packed engine needs survives: permission bits (but no setuid),
// empty directories, and links inside the tree, written with their target cleaned so that a
// link through a link cannot climb out.
func TestExtractKeeps(t *testing.T) {
	parent, root := sandbox(t)
	setuid := file("engine", "#!/bin/sh\n")
	setuid.mode = 0o4755
	archive := tarOf(t, dir("empty/"), setuid, file("lib/data.txt", "data"), link("data", "lib/data.txt"),
		link("here", "."), link("twisted", "here/.."), link("lib/up", "../engine"))
	if err := extract(bytes.NewReader(archive), root, Limits{}); err != nil {
		t.Fatal(err)
	}
	assertContained(t, parent)
	got := tree(t, root)
	want := []string{"data -> lib/data.txt", "empty/ drwxr-xr-x", "engine -rwxr-xr-x #!/bin/sh\n", "here -> .",
		"lib/ drwxr-xr-x", "lib/data.txt -rw-r--r-- data", "lib/up -> ../engine", "twisted -> ."}
	if !slices.Equal(got, want) {
		t.Fatalf("unpacked\n%q, want\n%q", got, want)
	}
}

// tree lists a directory: each entry with its mode and content, or its link's target.
func tree(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out = append(out, rel+" -> "+filepath.ToSlash(target))
		case d.IsDir():
			out = append(out, rel+"/ "+info.Mode().String())
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, rel+" "+info.Mode().String()+" "+string(data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// FuzzExtract: whatever a tar stream holds, unpacking it writes nothing outside its root and
// makes no link that leads out.
func FuzzExtract(f *testing.F) {
	f.Add(tarOf(f, file("../evil", "x")))
	f.Add(tarOf(f, link("l", "."), file("l/x", "x")))
	f.Add(tarOf(f, link("a", "."), link("b", "a/.."), file("c/d", "e")))
	f.Add(tarOf(f, dir("empty/"), file("lib/data.txt", "data"), link("data", "lib/data.txt")))
	var packed bytes.Buffer
	src := f.TempDir()
	writeFile(f, src, "bot.py", "print('hi')\n", 0o644)
	if err := os.Symlink("bot.py", filepath.Join(src, "main.py")); err != nil {
		f.Fatal(err)
	}
	if _, err := Pack(Source{Path: src, Command: []string{"python3", "bot.py"}}, &packed); err != nil {
		f.Fatal(err)
	}
	zr, err := gzip.NewReader(&packed)
	if err != nil {
		f.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Fuzz(func(t *testing.T, data []byte) {
		parent, root := sandbox(t)
		extract(bytes.NewReader(data), root, Limits{MaxUnpacked: 1 << 20, MaxEntries: 64})
		assertContained(t, parent)
	})
}
