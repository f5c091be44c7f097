package openings

import (
	"embed"
	"fmt"
	"slices"
	"strings"
)

// The shipped books, one file per book: books/NAME.txt, where "+" in a book's name is "-" in its
// file's (the Base+MLP book is base-mlp.txt).
//
//go:embed books/*.txt
var bookFiles embed.FS

// UnknownBookError reports a book name the binary does not ship.
type UnknownBookError struct{ Name string }

// Error names the book asked for and the books there are.
func (e *UnknownBookError) Error() string {
	return fmt.Sprintf("openings: no book %q (have %s)", e.Name, strings.Join(BookNames(), ", "))
}

// BookNames lists the names of the shipped books, sorted.
func BookNames() []string {
	entries, err := bookFiles.ReadDir("books")
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

// ReadBook returns the text of a shipped book by its name, in any case (e.g. "base+mlp").
func ReadBook(name string) ([]byte, error) {
	file := strings.ReplaceAll(strings.ToLower(name), "+", "-")
	if file == "" || strings.ContainsAny(file, "/.\\") {
		return nil, &UnknownBookError{Name: name}
	}
	data, err := bookFiles.ReadFile("books/" + file + ".txt")
	if err != nil {
		return nil, &UnknownBookError{Name: name}
	}
	return data, nil
}
