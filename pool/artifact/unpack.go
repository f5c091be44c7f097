package artifact

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Limits bound an artifact: its packed size, and for a directory what it unpacks to.
type Limits struct {
	MaxSize     int64 // packed bytes; DefaultMaxSize when zero
	MaxUnpacked int64 // bytes of a directory's files together; four times MaxSize when zero
	MaxEntries  int   // entries of a directory; DefaultMaxEntries when zero
}

// Defaults of Limits.
const (
	DefaultMaxSize    = 256 << 20
	DefaultMaxEntries = 100_000
)

func (l Limits) withDefaults() Limits {
	if l.MaxSize <= 0 {
		l.MaxSize = DefaultMaxSize
	}
	if l.MaxUnpacked <= 0 {
		l.MaxUnpacked = 4 * l.MaxSize
	}
	if l.MaxEntries <= 0 {
		l.MaxEntries = DefaultMaxEntries
	}
	return l
}

// UnsafeArchiveError is an archive entry that unpacking refuses: one that would land outside
// the tree or below a link, a link out of the tree, a duplicate, or a kind of file that is
// neither a regular file, a directory nor a link.
type UnsafeArchiveError struct {
	Name   string // the entry's name as the archive gives it
	Reason string
}

// Error names the archive's entry and why it would not be unpacked.
func (e *UnsafeArchiveError) Error() string {
	return fmt.Sprintf("artifact: unsafe archive entry %q: %s", e.Name, e.Reason)
}

// TooLargeError is an artifact over a limit.
type TooLargeError struct {
	What      string // "artifact", "unpacked files", "entries"
	Size, Max int64  // Size is what was seen when it went over Max: at least, not the whole
}

// Error says what went over its limit, how much of it was seen, and the limit.
func (e *TooLargeError) Error() string {
	unit := " bytes"
	if e.What == "entries" {
		unit = ""
	}
	return fmt.Sprintf("artifact: %s over the limit: %d%s or more, where the limit is %d%s", e.What, e.Size, unit, e.Max, unit)
}

// unpackDir unpacks a tar.gz into dir, which must exist and be empty.
func unpackDir(r io.Reader, dir string, lim Limits) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("artifact: not a tar.gz: %w", err)
	}
	if err := extract(zr, dir, lim); err != nil {
		return err
	}
	return zr.Close()
}

// extract unpacks a tar stream into dir. It trusts nothing in it: see UnsafeArchiveError.
func extract(r io.Reader, dir string, lim Limits) error {
	lim = lim.withDefaults()
	tr := tar.NewReader(r)
	x := extraction{dir: dir, lim: lim, seen: map[string]bool{}, links: map[string]bool{}}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("artifact: reading the archive: %w", err)
		}
		if err := x.entry(h, tr); err != nil {
			return err
		}
	}
}

type extraction struct {
	dir     string
	lim     Limits
	entries int
	written int64
	seen    map[string]bool // entry names, cleaned
	links   map[string]bool // names of the links made, in lower case
}

func (x *extraction) entry(h *tar.Header, r io.Reader) error {
	if h.Typeflag == tar.TypeXGlobalHeader {
		return nil // PAX defaults for later entries; the reader applies them
	}
	if x.entries++; x.entries > x.lim.MaxEntries {
		return &TooLargeError{What: "entries", Size: int64(x.entries), Max: int64(x.lim.MaxEntries)}
	}
	name, err := x.checkName(h.Name)
	if err != nil {
		return err
	}
	target := filepath.Join(x.dir, filepath.FromSlash(name))
	if parent := filepath.Dir(target); parent != x.dir {
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return fmt.Errorf("artifact: %w", err)
		}
	}
	mode := fs.FileMode(h.Mode).Perm() // no setuid, setgid or sticky bits
	switch h.Typeflag {
	case tar.TypeDir:
		err := os.Mkdir(target, mode|0o700)
		if errors.Is(err, fs.ErrExist) {
			if st, serr := os.Lstat(target); serr == nil && st.IsDir() {
				err = os.Chmod(target, mode|0o700) // made before as some file's parent
			}
		}
		return wrap(err)
	case tar.TypeReg, tar.TypeRegA:
		return x.file(target, mode, h.Size, r)
	case tar.TypeSymlink:
		if !linkInside(name, h.Linkname) {
			return &UnsafeArchiveError{Name: h.Name, Reason: fmt.Sprintf("a link to %q, outside the tree", h.Linkname)}
		}
		x.links[strings.ToLower(name)] = true // as a case-insensitive file system would see it
		return wrap(os.Symlink(filepath.FromSlash(path.Clean(h.Linkname)), target))
	}
	return &UnsafeArchiveError{Name: h.Name, Reason: fmt.Sprintf("entries of type %q are not unpacked (only files, directories and links)", h.Typeflag)}
}

// checkName cleans an entry's name and refuses one outside the tree, below a link, or seen
// before.
func (x *extraction) checkName(raw string) (string, error) {
	name := path.Clean(strings.TrimSuffix(raw, "/"))
	refuse := func(reason string) (string, error) { return "", &UnsafeArchiveError{Name: raw, Reason: reason} }
	switch {
	case raw == "" || name == ".":
		return refuse("no name")
	case strings.ContainsRune(raw, '\\') || strings.ContainsRune(raw, 0):
		return refuse("a backslash or NUL in the name")
	case path.IsAbs(raw) || !filepath.IsLocal(filepath.FromSlash(name)):
		return refuse("outside the tree")
	case x.seen[name]:
		return refuse("a second entry of the same name")
	}
	for p := path.Dir(name); p != "."; p = path.Dir(p) {
		if x.links[strings.ToLower(p)] {
			return refuse("below the link " + p)
		}
	}
	x.seen[name] = true
	return name, nil
}

func (x *extraction) file(target string, mode fs.FileMode, size int64, r io.Reader) error {
	if size < 0 || x.written+size > x.lim.MaxUnpacked {
		return &TooLargeError{What: "unpacked files", Size: x.written + size, Max: x.lim.MaxUnpacked}
	}
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode|0o600)
	if err != nil {
		return wrap(err)
	}
	n, err := io.Copy(f, io.LimitReader(r, size))
	x.written += n
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != size {
		err = io.ErrUnexpectedEOF
	}
	return wrap(err)
}

func wrap(err error) error {
	if err != nil {
		return fmt.Errorf("artifact: unpacking: %w", err)
	}
	return nil
}
