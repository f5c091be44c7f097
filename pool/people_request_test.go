package pool

import (
	"strings"
	"testing"
)

// TestParsePeople: the words of "server user" are one request about a person, with the
// person's name and role where the request gives them, and an add's random password.
func TestParsePeople(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		words []string
		want  PeopleRequest
		bad   bool
	}{
		{[]string{"list"}, PeopleRequest{Op: "list"}, false},
		{[]string{"add", "ann"}, PeopleRequest{Op: "add", Name: "ann", Role: "approver"}, false},
		{[]string{"accept", "ann"}, PeopleRequest{Op: "accept", Name: "ann"}, false},
		{[]string{"block", "ann"}, PeopleRequest{Op: "block", Name: "ann"}, false},
		{[]string{"token", "ann"}, PeopleRequest{Op: "token", Name: "ann"}, false},
		{[]string{"role", "ann", "admin"}, PeopleRequest{Op: "role", Name: "ann", Role: "admin"}, false},
		{nil, PeopleRequest{}, true},
		{[]string{"add"}, PeopleRequest{}, true},
		{[]string{"role", "ann"}, PeopleRequest{}, true},
		{[]string{"list", "ann"}, PeopleRequest{}, true},
		{[]string{"remove", "ann"}, PeopleRequest{}, true},
	} {
		got, err := ParsePeople(tc.words, "approver")
		if (err != nil) != tc.bad {
			t.Errorf("ParsePeople(%q) = %+v, %v", tc.words, got, err)
			continue
		}
		if tc.bad {
			if !strings.HasPrefix(err.Error(), "want: server user ") {
				t.Errorf("ParsePeople(%q) error %q does not say what it wants", tc.words, err)
			}
			continue
		}
		if tc.want.Op == "add" && len(got.Password) != 20 {
			t.Errorf("server user add made the password %q: want 20 random characters", got.Password)
		}
		got.Password = ""
		if got != tc.want {
			t.Errorf("ParsePeople(%q) = %+v, want %+v", tc.words, got, tc.want)
		}
	}
	a, _ := ParsePeople([]string{"add", "ann"}, "user")
	b, _ := ParsePeople([]string{"add", "ann"}, "user")
	if a.Password == b.Password {
		t.Errorf("two adds made the same password %q", a.Password)
	}
}

// FuzzParsePeople: any words are a request whose op is their first word, naming the person
// the second word names, or an error; never a panic.
func FuzzParsePeople(f *testing.F) {
	for _, seed := range []string{"add ann", "list", "role ann admin", "role ann", "token", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words := strings.Fields(line)
		req, err := ParsePeople(words, "user")
		if err != nil {
			return
		}
		if req.Op != words[0] || req.Op != "list" && req.Name != words[1] {
			t.Fatalf("ParsePeople(%q) = %+v", words, req)
		}
	})
}
