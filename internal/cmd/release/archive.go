package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// writeTarGz packs the folder root/base, named base/... inside, as a gzipped tar at path.
func writeTarGz(path, root, base string) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer closeInto(f, &err)
	gz := gzip.NewWriter(f)
	defer closeInto(gz, &err)
	tw := tar.NewWriter(gz)
	defer closeInto(tw, &err)
	return walkFiles(root, base, func(name string, fi fs.FileInfo, r io.Reader) error {
		hdr, err := tar.FileInfoHeader(fi, "")
		if err != nil {
			return err
		}
		hdr.Name, hdr.Uname, hdr.Gname, hdr.Uid, hdr.Gid = name, "", "", 0, 0
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		_, err = io.Copy(tw, r)
		return err
	})
}

// writeZip packs the folder root/base, named base/... inside, as a zip file at path.
func writeZip(path, root, base string) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer closeInto(f, &err)
	zw := zip.NewWriter(f)
	defer closeInto(zw, &err)
	return walkFiles(root, base, func(name string, fi fs.FileInfo, r io.Reader) error {
		hdr, err := zip.FileInfoHeader(fi)
		if err != nil {
			return err
		}
		hdr.Name, hdr.Method = name, zip.Deflate
		w, err := zw.CreateHeader(hdr)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, r)
		return err
	})
}

// walkFiles calls add for each regular file under root/base, in lexical order, with its
// slash-separated name relative to root.
func walkFiles(root, base string, add func(name string, fi fs.FileInfo, r io.Reader) error) error {
	return filepath.WalkDir(filepath.Join(root, base), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		return add(filepath.ToSlash(rel), fi, f)
	})
}

// writeSums writes out/SHA256SUMS: a line "HEX  NAME" for each archive, sorted by name, as
// sha256sum writes and checks them.
func writeSums(out string, archives []string) error {
	var b strings.Builder
	for _, name := range slices.Sorted(slices.Values(archives)) {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(data), name)
	}
	return os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(b.String()), 0o644)
}

// closeInto closes c and keeps its error in *err unless *err already holds one.
func closeInto(c io.Closer, err *error) {
	if cerr := c.Close(); *err == nil {
		*err = cerr
	}
}
