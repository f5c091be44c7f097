package artifact

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"time"
)

// Source is an engine to pack: a program file, or a directory with the command to run in it.
type Source struct {
	// Path is the program file, or the directory.
	Path string
	// Command runs the engine with the artifact's root as its working directory: a program on
	// the PATH (python3, node) or a path inside the root ("./engine"), then its arguments. For a
	// file it may be empty: the file itself, with no arguments.
	Command []string
	// Platform ("os/arch" or "any") and Runtime override what is read from the command and
	// the program's header.
	Platform, Runtime string
}

// epoch is every entry's modification time, so that a directory packs to the same bytes
// wherever and whenever it is packed.
var epoch = time.Unix(0, 0)

// Pack writes the artifact of src to w: a file's own bytes, or a directory as a tar.gz with
// its entries in lexical order, modification times at the epoch, no owners, and permission
// bits kept. Symbolic links are kept when their target stays inside the directory, and
// refused otherwise; other special files are refused. It returns the manifest of what it
// wrote.
func Pack(src Source, w io.Writer) (Manifest, error) {
	st, err := os.Stat(src.Path)
	if err != nil {
		return Manifest{}, fmt.Errorf("artifact: %w", err)
	}
	m := Manifest{Kind: File, Command: slices.Clone(src.Command)}
	program := src.Path
	if st.IsDir() {
		m.Kind = Dir
		if len(m.Command) == 0 {
			return Manifest{}, fmt.Errorf("artifact: %s is a directory: give the command to run in it", src.Path)
		}
		if isPath(m.Command[0]) {
			program = filepath.Join(src.Path, m.Command[0])
			if !filepath.IsLocal(filepath.FromSlash(m.Command[0])) {
				return Manifest{}, fmt.Errorf("artifact: the program %q is not inside %s", m.Command[0], src.Path)
			}
		}
	} else if len(m.Command) == 0 || isPath(m.Command[0]) {
		// A file is run as itself, unless a runtime runs it (python3 bot.py); its arguments stay.
		m.Command = append([]string{"./" + filepath.Base(src.Path)}, m.Command[min(1, len(m.Command)):]...)
	}
	if m.Kind == File {
		m.Name = filepath.Base(src.Path)
	}
	if err := describe(&m, src, program); err != nil {
		return Manifest{}, err
	}
	h := sha256.New()
	counted := &countWriter{w: io.MultiWriter(w, h)}
	if m.Kind == Dir {
		err = packDir(counted, src.Path)
	} else {
		err = copyFile(counted, src.Path)
	}
	if err != nil {
		return Manifest{}, err
	}
	m.SHA256, m.Size = hex.EncodeToString(h.Sum(nil)), counted.n
	return m, m.Check()
}

// describe fills a manifest's runtime and platform from the source's, or from the command and
// the program's header.
func describe(m *Manifest, src Source, program string) error {
	m.Runtime, m.Platform = runtimeOf(m.Command), AnyPlatform
	if m.Runtime == "" {
		platform, interpreter, err := platformOf(program)
		switch {
		case err != nil && src.Platform == "":
			return fmt.Errorf("artifact: the platform of %s: %w (give it)", program, err)
		case err == nil:
			m.Platform, m.Runtime = platform, interpreter
		}
	}
	if src.Platform != "" {
		m.Platform = src.Platform
	}
	if src.Runtime != "" {
		m.Runtime = src.Runtime
	}
	return nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func copyFile(w io.Writer, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("artifact: %w", err)
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		return fmt.Errorf("artifact: %w", err)
	}
	return nil
}

// packDir writes a directory as a deterministic tar.gz. filepath.WalkDir visits each
// directory's entries in lexical order and does not follow links.
func packDir(w io.Writer, root string) error {
	zw, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	err = filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
		if err != nil || file == root {
			return err
		}
		rel, err := filepath.Rel(root, file)
		if err != nil {
			return err
		}
		return packEntry(tw, file, filepath.ToSlash(rel), d)
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		return fmt.Errorf("artifact: packing %s: %w", root, err)
	}
	return nil
}

func packEntry(tw *tar.Writer, file, name string, d fs.DirEntry) error {
	info, err := d.Info()
	if err != nil {
		return err
	}
	h := &tar.Header{Name: name, ModTime: epoch, Mode: int64(info.Mode().Perm())}
	switch {
	case d.IsDir():
		h.Typeflag, h.Name = tar.TypeDir, name+"/"
	case d.Type()&fs.ModeSymlink != 0:
		target, err := os.Readlink(file)
		if err != nil {
			return err
		}
		target = filepath.ToSlash(target)
		if !linkInside(name, target) {
			return &UnsafeArchiveError{Name: name, Reason: fmt.Sprintf("a link to %s, outside the directory", target)}
		}
		h.Typeflag, h.Linkname, h.Mode = tar.TypeSymlink, path.Clean(target), 0o777
	case d.Type().IsRegular():
		h.Typeflag, h.Size = tar.TypeReg, info.Size()
	default:
		return &UnsafeArchiveError{Name: name, Reason: "not a file, a directory or a link (" + d.Type().String() + ")"}
	}
	if err := tw.WriteHeader(h); err != nil {
		return err
	}
	if h.Typeflag != tar.TypeReg {
		return nil
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := io.Copy(tw, f)
	if err == nil && n != h.Size {
		err = errors.New("changed while it was packed")
	}
	return err
}

// linkInside says whether a link called name (slash-separated, relative to the root) whose
// target is target stays inside the root. Unpack also refuses entries below a link, so that
// every directory a target climbs out of is a real one and the lexical answer is the true one.
func linkInside(name, target string) bool {
	if target == "" || path.IsAbs(target) || filepath.IsAbs(filepath.FromSlash(target)) || filepath.VolumeName(filepath.FromSlash(target)) != "" {
		return false
	}
	return filepath.IsLocal(filepath.FromSlash(path.Join(path.Dir(name), target)))
}
