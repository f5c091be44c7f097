//go:build windows

package proc

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// programExtensions are the extensions Windows runs a file by, from PATHEXT as exec.LookPath
// reads it, with LookPath's default when PATHEXT is unset.
func programExtensions() []string {
	pathext := os.Getenv("PATHEXT")
	if pathext == "" {
		return []string{".com", ".exe", ".bat", ".cmd"}
	}
	var exts []string
	for _, e := range strings.Split(strings.ToLower(pathext), ";") {
		if e == "" {
			continue
		}
		if e[0] != '.' {
			e = "." + e
		}
		exts = append(exts, e)
	}
	return exts
}

// withExtension is the file Windows runs for path: path itself when it ends in a program
// extension, else the first of path+extension that exists (cmd=.\hivebot runs .\hivebot.exe,
// as exec.Command finds it), else path unchanged for the caller to find missing.
func withExtension(path string) string {
	exts := programExtensions()
	if isProgramExtension(filepath.Ext(path), exts) {
		return path
	}
	for _, e := range exts {
		if st, err := os.Stat(path + e); err == nil && !st.IsDir() {
			return path + e
		}
	}
	return path
}

func isProgramExtension(ext string, exts []string) bool {
	for _, e := range exts {
		if strings.EqualFold(ext, e) {
			return true
		}
	}
	return false
}

// notRunnable says, as the end of a sentence about the program, why a file that exists cannot be
// run, or "" when it can: Windows has no execute bit and runs a file by its extension.
func notRunnable(st fs.FileInfo, path string) string {
	exts := programExtensions()
	if isProgramExtension(filepath.Ext(path), exts) {
		return ""
	}
	return "is not a program Windows runs: its name must end in one of " + strings.Join(exts, ", ") +
		" (PATHEXT); a script is run through its interpreter, as in cmd=python engine.py"
}
