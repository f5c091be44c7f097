package configs

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"hivearbiter/arbiter"
)

//go:embed *.toml
var examples embed.FS

// DefaultName is the name of the embedded configuration that "arbiter" runs with no arguments.
const DefaultName = "default.toml"

// Examples lists the names of the embedded example configurations.
func Examples() []string {
	entries, _ := fs.ReadDir(examples, ".")
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".toml") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// Example returns the text of an embedded example configuration.
func Example(name string) ([]byte, error) {
	data, err := examples.ReadFile(name)
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("no example named %q (have %s)", name, strings.Join(Examples(), ", "))}
	}
	return data, nil
}

// LoadExample reads an embedded example configuration.
func LoadExample(name string, resolve Resolver) (arbiter.Config, error) {
	data, err := Example(name)
	if err != nil {
		return arbiter.Config{}, err
	}
	return Load(name, data, resolve)
}
