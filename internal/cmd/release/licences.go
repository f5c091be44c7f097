package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// copyLicences copies into dir the licence files of what the commands compile in, for the
// platform env names: Go's (its runtime and standard library) as go/ and each dependency
// module's as its module path (the module's own is a top file, see copyTopFiles). A dependency without a licence
// file is an error: the archive could not carry its terms.
func copyLicences(ctx context.Context, env []string, dir string) error {
	list := exec.CommandContext(ctx, "go", append([]string{"list", "-deps", "-f",
		`{{with .Module}}{{if not .Main}}{{.Path}}{{"\t"}}{{with .Replace}}{{.Dir}}{{else}}{{.Dir}}{{end}}{{end}}{{end}}`}, commands...)...)
	list.Env = env
	output, err := list.Output()
	if err != nil {
		return fmt.Errorf("go list: %w", err)
	}
	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	sources := map[string]string{"go": strings.TrimSpace(string(goroot))}
	for line := range strings.Lines(string(output)) {
		if path, moduleDir, ok := strings.Cut(strings.TrimSpace(line), "\t"); ok {
			sources[path] = moduleDir
		}
	}
	for path, from := range sources {
		if err := copyLicenceFiles(filepath.Join(dir, filepath.FromSlash(path)), from); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// copyLicenceFiles copies the licence files at the top of the folder from into the new
// folder to; errNoLicence if there are none.
func copyLicenceFiles(to, from string) error {
	names, err := licenceFiles(from)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("%w in %s", errNoLicence, from)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, name := range names {
		if err := copyFile(filepath.Join(to, name), filepath.Join(from, name)); err != nil {
			return err
		}
	}
	return nil
}

// licenceFiles names the files at the top of dir that carry licence terms: LICENSE, LICENCE,
// COPYING, NOTICE and PATENTS, in any case and with any extension.
func licenceFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		stem, _, _ := strings.Cut(strings.ToUpper(e.Name()), ".")
		switch stem {
		case "LICENSE", "LICENCE", "COPYING", "NOTICE", "PATENTS":
			if e.Type().IsRegular() {
				names = append(names, e.Name())
			}
		}
	}
	return names, nil
}
