package openings

import (
	"bufio"
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"hivearbiter/rules"
)

// TestShippedBooks: each shipped book says the command that made it, and holds as many
// positions as its header says, of its game type, none equal to another up to symmetry and
// none over.
func TestShippedBooks(t *testing.T) {
	names := BookNames()
	if strings.Join(names, " ") != "base base+mlp" {
		t.Fatalf("books %q, want base and base+mlp", names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			data, err := ReadBook(strings.ToUpper(name))
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]rules.GameType{"base": rules.Base, "base+mlp": rules.BaseMLP}[name]
			var header []string
			seen := map[rules.Canonical]int{}
			sc := bufio.NewScanner(bytes.NewReader(data))
			for n := 1; sc.Scan(); n++ {
				line := sc.Text()
				if strings.HasPrefix(line, "# ") {
					header = append(header, line)
					continue
				}
				gs, comment, ok := strings.Cut(line, " # eval ")
				if !ok {
					t.Fatalf("line %d %q: no evaluation comment", n, line)
				}
				g, err := rules.ParseGameString(gs)
				if err != nil {
					t.Fatalf("line %d: %v", n, err)
				}
				if g.GameType() != want || g.State().IsOver() {
					t.Errorf("line %d: %s, %s", n, g.GameType(), g.State())
				}
				if first, ok := seen[g.Canonical()]; ok {
					t.Errorf("line %d repeats line %d up to symmetry", n, first)
				}
				seen[g.Canonical()] = n
				if comment == "" {
					t.Errorf("line %d: an empty comment", n)
				}
			}
			if len(header) < 3 || !strings.HasPrefix(header[1], "# Made by: arbiter openings generate -game-type "+want.String()+" ") {
				t.Fatalf("header %q: want the command that made the book on its second line", header)
			}
			if !strings.Contains(header[0], " "+strconv.Itoa(len(seen))+" "+want.String()+" positions") {
				t.Errorf("header %q, but the book has %d positions", header[0], len(seen))
			}
		})
	}
}

// TestUnknownBook: a name the binary does not ship is an UnknownError naming those it does.
func TestUnknownBook(t *testing.T) {
	for _, name := range []string{"", "base+mlp+x", "../doc.go", "books/base"} {
		_, err := ReadBook(name)
		var be *UnknownBookError
		if !errors.As(err, &be) || !strings.Contains(err.Error(), "base, base+mlp") {
			t.Errorf("%q: %v, want an UnknownError naming the books", name, err)
		}
	}
}
