package openings

import (
	"errors"
	"strings"
	"testing"

	"hivearbiter/rules"
)

// TestOpeningsTrailingComments: a comment may follow a GameString on its line, as generated
// books write each position's evaluation; the old parser refused such a line.
func TestOpeningsTrailingComments(t *testing.T) {
	path := writeFile(t, "book.txt", "# a book\nBase;InProgress;White[2];wS1;bS1 wS1- # eval +3\n  Base;InProgress;White[2];wA1;bG1 -wA1#eval -1\n")
	b, err := Load(Config{File: path}, rules.Base, 1)
	if err != nil {
		t.Fatal(err)
	}
	if gs, _ := b.At(1); b.Len() != 2 || gs != "Base;InProgress;White[2];wA1;bG1 -wA1" {
		t.Errorf("%d openings, the second %q", b.Len(), gs)
	}
}

// TestOpeningsShippedBook: book=NAME plays a shipped book as its file would be played, in
// any case; a book of another game type is an error that names the book and what to give
// instead (it named a line of the book), and an unknown book one that names the books.
func TestOpeningsShippedBook(t *testing.T) {
	data, err := ReadBook("base+mlp")
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := Load(Config{File: writeFile(t, "base-mlp.txt", string(data))}, rules.BaseMLP, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(Config{Book: "Base+MLP"}, rules.BaseMLP, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != fromFile.Len() || b.Len() < 100 || len(b.Warnings()) != 0 {
		t.Fatalf("%d openings from the book, %d from its file; warnings %q", b.Len(), fromFile.Len(), b.Warnings())
	}
	for p := range b.Len() {
		if gs, _ := b.At(p); gs != fromFile.lines[p] {
			t.Fatalf("opening %d: %q from the book, %q from the file", p, gs, fromFile.lines[p])
		}
	}
	for _, tc := range []struct {
		book string
		run  rules.GameType
		want string
	}{
		{"base+mlp", rules.Base, "openings book=base+mlp: the book holds Base+MLP openings and the run plays Base: play -gametype Base+MLP, or -openings book=base"},
		{"base", rules.BaseMLP, "openings book=base: the book holds Base openings and the run plays Base+MLP: play -gametype Base, or -openings book=base+mlp"},
		{"base", rules.BaseM, "openings book=base: the book holds Base openings and the run plays Base+M: play -gametype Base, or random openings (-openings plies=4); no book ships for Base+M"},
	} {
		_, err = Load(Config{Book: tc.book}, tc.run, 1)
		var oe *Error
		if !errors.As(err, &oe) || oe.Error() != tc.want {
			t.Errorf("book %s in a %s run: %v, want an openings.Error %q", tc.book, tc.run, err, tc.want)
		}
	}
	_, err = Load(Config{Book: "chess"}, rules.Base, 1)
	var be *UnknownBookError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "book=chess") {
		t.Errorf("unknown book: %v, want an UnknownError for book=chess", err)
	}
}
