package openings

import (
	"embed"
	"fmt"
	"slices"
	"strings"
)

// The shipped books, one file per book: books/NAME.txt, where "+" in a book's name is "-" in
// its file's (the Base+MLP book is base-mlp.txt).
//
//go:embed books/*.txt
var bookFiles embed.FS

// BookError reports a book name the binary does not ship.
type BookError struct{ Name string }

func (e *BookError) Error() string {
	return fmt.Sprintf("openings: no book %q (have %s)", e.Name, strings.Join(Books(), ", "))
}

// Books lists the names of the shipped books, sorted.
func Books() []string {
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

// ShippedBook returns the text of a shipped book by its name, in any case (e.g. "base+mlp").
func ShippedBook(name string) ([]byte, error) {
	file := strings.ReplaceAll(strings.ToLower(name), "+", "-")
	if file == "" || strings.ContainsAny(file, "/.\\") {
		return nil, &BookError{Name: name}
	}
	data, err := bookFiles.ReadFile("books/" + file + ".txt")
	if err != nil {
		return nil, &BookError{Name: name}
	}
	return data, nil
}
