// Package books holds the opening books the arbiter ships, embedded in the binary, by name
// ("arbiter match -openings book=NAME"). It is data alone, so that the arbiter can embed the
// books without linking what generates them (package openings, over hivebot's search and any
// engine).
package books

import (
	"embed"
	"fmt"
	"slices"
	"strings"
)

// The shipped books, one file per book: NAME.txt, where "+" in a book's name is "-" in its
// file's (the Base+MLP book is base-mlp.txt).
//
//go:embed *.txt
var bookFiles embed.FS

// UnknownError reports a book name the binary does not ship.
type UnknownError struct{ Name string }

func (e *UnknownError) Error() string {
	return fmt.Sprintf("openings: no book %q (have %s)", e.Name, strings.Join(Names(), ", "))
}

// Names lists the names of the shipped books, sorted.
func Names() []string {
	entries, err := bookFiles.ReadDir(".")
	if err != nil {
		panic("openings: the embedded books are missing: " + err.Error())
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.ReplaceAll(strings.TrimSuffix(e.Name(), ".txt"), "-", "+"))
	}
	slices.Sort(names)
	return names
}

// Read returns the text of a shipped book by its name, in any case (e.g. "base+mlp").
func Read(name string) ([]byte, error) {
	file := strings.ReplaceAll(strings.ToLower(name), "+", "-")
	if file == "" || strings.ContainsAny(file, "/.\\") {
		return nil, &UnknownError{Name: name}
	}
	data, err := bookFiles.ReadFile(file + ".txt")
	if err != nil {
		return nil, &UnknownError{Name: name}
	}
	return data, nil
}
