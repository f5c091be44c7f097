package configs

import (
	"strings"
	"testing"
)

func TestListExampleLoads(t *testing.T) {
	l, err := LoadList("lists/example.toml", ListExample(), fakeResolver)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entrants) != 3 || l.Anchor.Entrant != "hivebot weak" || l.Openings.Book != "Base+MLP" || l.Records != "lists/example.records.jsonl" {
		t.Errorf("example list: %+v", l)
	}
	for _, e := range l.Entrants {
		if e.Engine.Name != e.Player() || e.Engine.Time.String() != "10+0.1" {
			t.Errorf("entrant %s: engine %q at %q", e.Player(), e.Engine.Name, e.Engine.Time)
		}
	}
}

func TestListRefusesBadFiles(t *testing.T) {
	const entrants = `
[[entrant]]
name = "a"
version = "1"
engine = "cmd=./a"
[[entrant]]
name = "b"
version = "1"
engine = "cmd=./b"
`
	tests := []struct {
		name, file, want string
	}{
		{"unknown key", "limit = \"st=1\"\nerror_targt = 3\n[anchor]\nentrant = \"a 1\"\n" + entrants, "list.toml:2: error_targt: unknown key: did you mean error_target?"},
		{"no limit", "[anchor]\nentrant = \"a 1\"\n" + entrants, "limit: missing"},
		{"bad limit", "limit = \"tc=soon\"\n[anchor]\nentrant = \"a 1\"\n" + entrants, `limit: "tc=soon": want one limit`},
		{"anchor not an entrant", "limit = \"st=1\"\n[anchor]\nentrant = \"c 1\"\n" + entrants, `the anchor "c 1" is not an entrant`},
		{"duplicate", "limit = \"st=1\"\n[anchor]\nentrant = \"a 1\"\n" + entrants + "[[entrant]]\nname = \"a\"\nversion = \"1\"\nengine = \"cmd=./a2\"\n", `two entrants are "a 1"`},
		{"own limit", "limit = \"st=1\"\n[anchor]\nentrant = \"a 1\"\n" + strings.Replace(entrants, `"cmd=./b"`, `"cmd=./b st=5"`, 1), "st=5: the list's limit is its own"},
		{"no engine", "limit = \"st=1\"\n[anchor]\nentrant = \"a 1\"\n" + strings.Replace(entrants, `engine = "cmd=./b"`, ``, 1), "no engine"},
		{"bad engine", "limit = \"st=1\"\n[anchor]\nentrant = \"a 1\"\n" + strings.Replace(entrants, `"cmd=./b"`, `"cmd=./b optoin.X=1"`, 1), "entrant 2 (b 1)"},
		{"syntax", "limit = st=1\n", "list.toml:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadList("list.toml", []byte(tt.file), fakeResolver)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("LoadList: %v\nwant an error with %q", err, tt.want)
			}
		})
	}
}

func FuzzLoadList(f *testing.F) {
	f.Add(ListExample())
	f.Add([]byte("limit = \"st=1\"\n[[entrant]]\nname = \"a\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := LoadList("fuzz.toml", data, fakeResolver)
		if err == nil && (len(l.Entrants) < 2 || len(l.Limit) != 1) {
			t.Fatalf("accepted a list without two entrants and a limit: %+v", l)
		}
	})
}
