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

// Example returns the text of an embedded example configuration, named as a file
// ("match.toml") or as a user names it ("match"); an unknown name's error lists the names
// there are, as "arbiter config list" prints them.
func Example(name string) ([]byte, error) {
	data, err := examples.ReadFile(strings.TrimSuffix(name, ".toml") + ".toml")
	if err != nil {
		return nil, fmt.Errorf("no such example (have %s)", strings.Join(ExampleNames(), ", "))
	}
	return data, nil
}

// ExampleNames are the names of the embedded examples as a user gives them: "match" for
// match.toml.
func ExampleNames() []string {
	names := Examples()
	for i, n := range names {
		names[i] = strings.TrimSuffix(n, ".toml")
	}
	return names
}

// LoadExample reads an embedded example configuration.
func LoadExample(name string, resolve Resolver) (arbiter.Config, error) {
	data, err := Example(name)
	if err != nil {
		return arbiter.Config{}, err
	}
	return Load(name, data, resolve)
}
