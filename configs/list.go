package configs

import (
	_ "embed"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/openings"
	"hivearbiter/ratinglist"
	"hivearbiter/rules"
)

// listFile is the TOML layout of a rating list: its conditions, its anchor and its entrants.
type listFile struct {
	Name          string        `toml:"name"`
	GameType      string        `toml:"game_type"`
	Limit         string        `toml:"limit"`
	Seed          int64         `toml:"seed"`
	Concurrency   int           `toml:"concurrency"`
	Mode          string        `toml:"mode"`
	Rounds        int           `toml:"rounds"`
	Pairs         int           `toml:"pairs"`
	Opponents     int           `toml:"opponents"`
	ErrorTarget   float64       `toml:"error_target"`
	MaxGames      int           `toml:"max_games"`
	FailureStreak int           `toml:"failure_streak"`
	Records       string        `toml:"records"`
	Checks        string        `toml:"checks"`
	Site          string        `toml:"site"`
	Anchor        listAnchor    `toml:"anchor"`
	Openings      openingsTable `toml:"openings"`
	Adjudication  adjudication  `toml:"adjudication"`
	Entrants      []listEntrant `toml:"entrant"`
}

type listAnchor struct {
	Entrant string   `toml:"entrant"`
	Elo     *float64 `toml:"elo"`
}

type listEntrant struct {
	Name    string `toml:"name"`
	Version string `toml:"version"`
	Engine  string `toml:"engine"`
	Author  string `toml:"author"`
	URL     string `toml:"url"`
	Licence string `toml:"licence"`
}

//go:embed lists/example.toml
var listExample []byte

// ListExample is the text of the embedded example of a rating list.
func ListExample() []byte { return listExample }

// ReadList reads a rating list's file: its conditions and entrants, each entrant's engine
// words parsed with the list's limit. Every problem is reported at once, with its line.
func ReadList(path string, resolve Resolver) (*ratinglist.List, error) {
	data, err := readData(path)
	if err != nil {
		return nil, err
	}
	return LoadList(path, data, resolve)
}

// LoadList reads a rating list from data; name is its file's path, which relative paths in it
// are taken from.
func LoadList(name string, data []byte, resolve Resolver) (*ratinglist.List, error) {
	var f listFile
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		return nil, decodeError(name, err)
	}
	var problems []error
	for _, k := range md.Undecoded() {
		msg := "unknown key"
		layouts := map[string]any{"": listFile{}, "entrant": listEntrant{}, "anchor": listAnchor{}, "openings": openingsTable{}, "adjudication": adjudication{}}
		table := ""
		if len(k) > 1 {
			table = k[0]
		}
		if layout, ok := layouts[table]; ok {
			if near, ok := driver.ClosestName(k[len(k)-1], tomlKeys(layout)); ok {
				msg = fmt.Sprintf("unknown key: did you mean %s?", near)
			}
		}
		problems = append(problems, &Error{File: name, Line: lineOfKey(data, k[len(k)-1]), Key: k.String(), Msg: msg})
	}
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	bad := func(key, format string, args ...any) {
		problems = append(problems, &Error{File: name, Line: lineOfKey(data, key), Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	given := func(key ...string) bool { return md.IsDefined(key...) }
	dir := filepath.Dir(name)
	base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	at := func(p, def string) string {
		if p == "" {
			p = def
		}
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	l := &ratinglist.List{
		Name: f.Name, Path: name, GameType: f.GameType, Seed: f.Seed, Concurrency: f.Concurrency,
		Mode: ratinglist.Mode(f.Mode), Rounds: f.Rounds, Pairs: f.Pairs, Opponents: f.Opponents,
		ErrorTarget: f.ErrorTarget, MaxGames: f.MaxGames, FailureStreak: f.FailureStreak,
		Records: at(f.Records, base+".records.jsonl"), Checks: at(f.Checks, base+".checks"), Site: at(f.Site, base+"-site"),
		Anchor: ratinglist.Anchor{Entrant: f.Anchor.Entrant, Elo: ratinglist.DefaultAnchorElo},
	}
	if f.Name == "" {
		l.Name = base
	}
	if f.Anchor.Elo != nil {
		l.Anchor.Elo = *f.Anchor.Elo
	}
	gt := rules.BaseMLP
	if f.GameType != "" {
		if gt, err = rules.ParseGameType(f.GameType); err != nil {
			bad("game_type", "%q: want one of %s", f.GameType, rules.GameTypeList(", "))
		}
	}
	l.GameType = gt.String()
	if f.Limit == "" {
		bad("limit", `missing: the list's one limit, such as limit = "tc=60+0.6" (or "st=SECONDS", "depth=N")`)
	} else {
		l.Limit = strings.Fields(f.Limit)
		k, v, _ := strings.Cut(f.Limit, "=")
		spec := f.Limit
		if k == "tc" {
			spec = v
		}
		if _, err := driver.ParseTimeControl(spec); err != nil || len(l.Limit) != 1 {
			bad("limit", `%q: want one limit, such as "tc=60+0.6", "st=1" or "depth=4"`, f.Limit)
		}
	}
	l.Openings = openings.Config{File: f.Openings.File, Book: f.Openings.Book, Order: f.Openings.Order, Start: f.Openings.Start, RandomPlies: f.Openings.Plies}
	if l.Openings.File != "" {
		l.Openings.File = at(l.Openings.File, "")
	}
	if !given("openings") {
		if slices.ContainsFunc(openings.BookNames(), func(b string) bool { return strings.EqualFold(b, l.GameType) }) {
			l.Openings.Book = l.GameType // a shipped book by default, as the lists use a common book
		} else {
			l.Openings.RandomPlies = DefaultOpeningPlies
		}
	}
	l.Adjudication = arbiter.Adjudication{Repetitions: f.Adjudication.Repetitions, MaxPlies: f.Adjudication.MaxPlies}
	if !given("adjudication", "repetitions") {
		l.Adjudication.Repetitions = DefaultRepetitions
	}
	switch {
	case given("adjudication", "max_moves"):
		l.Adjudication.MaxPlies = 2 * f.Adjudication.MaxMoves
	case !given("adjudication", "max_plies"):
		l.Adjudication.MaxPlies = 2 * DefaultMaxMoves
	}
	for i, e := range f.Entrants {
		en := ratinglist.Entrant{Name: e.Name, Version: e.Version, Author: e.Author, URL: e.URL, Licence: e.Licence}
		en.Words = strings.Fields(e.Engine)
		where := fmt.Sprintf("entrant %d (%s %s)", i+1, e.Name, e.Version)
		if e.Engine == "" {
			bad("engine", "%s: no engine: give engine = \"cmd=PROGRAM ...\", the -engine words that arbiter check prints", where)
		} else if len(l.Limit) > 0 {
			words := append(append([]string{}, en.Words...), l.Limit...)
			ec, err := ParseEngine(words, resolve)
			if err != nil {
				bad("engine", "%s: %s", where, driver.Message(err))
			}
			for _, w := range en.Words {
				k, _, _ := strings.Cut(w, "=")
				if k == "tc" || k == "st" || k == "depth" || k == "nodes" {
					bad("engine", "%s: %s: the list's limit is its own (limit = %q), the same for every entrant", where, w, f.Limit)
				}
			}
			ec.Name = en.Player()
			en.Engine = ec
		}
		l.Entrants = append(l.Entrants, en)
	}
	if err := l.Normalize(); err != nil {
		for _, e := range unjoin(err) {
			problems = append(problems, &Error{File: name, Msg: driver.Message(e)})
		}
	}
	return l, errors.Join(problems...)
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
