package site

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"hivearbiter/ratinglist"
	"hivearbiter/results"
)

// The site's files, relative to its folder; an engine's are engines/SLUG.html and .pgn.
const (
	IndexFile       = "index.html"
	HeadToHeadFile  = "head-to-head.html"
	GamesFile       = "games.pgn"
	TableJSONFile   = "table.json"
	TableCSVFile    = "table.csv"
	EnginesDir      = "engines"
	noCheckReport   = "no check report kept"
	updatedLayout   = "2006-01-02 15:04 UTC"
	firstGameLayout = "2006-01-02"
)

// Error is a site that could not be written.
type Error struct {
	Path string
	Err  error
}

// Error returns what went wrong, as a user reads it.
func (e *Error) Error() string { return "ratinglist/site: " + e.Message() }

// Message is the error without the package's name.
func (e *Error) Message() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns the error underneath, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// Write writes the list's site into dir, creating it: its pages, its games as PGN and its
// table as JSON and CSV (see the package's doc). t is the list's table from its records recs;
// checks holds the text of each entrant's arbiter check report by its player name (an
// entrant without one is said to have none). Each file is written under a temporary name and
// renamed, so that a reader of the folder never sees half a file; the engine pages of
// engines no longer on the list are removed.
func Write(dir string, l *ratinglist.List, t *ratinglist.Table, recs []results.Record, checks map[string]string) error {
	if err := os.MkdirAll(filepath.Join(dir, EnginesDir), 0o755); err != nil {
		return &Error{dir, err}
	}
	s := newSite(l, t, checks)
	written := map[string]bool{}
	put := func(name string, b []byte) error {
		written[name] = true
		return writeFile(filepath.Join(dir, filepath.FromSlash(name)), b)
	}
	var page bytes.Buffer
	render := func(name, tmpl string, data any) error {
		page.Reset()
		if err := pages.ExecuteTemplate(&page, tmpl, data); err != nil {
			return &Error{name, err}
		}
		return put(name, page.Bytes())
	}
	if err := render(IndexFile, "index", s.index()); err != nil {
		return err
	}
	if err := render(HeadToHeadFile, "head-to-head", s.headToHead()); err != nil {
		return err
	}
	for _, name := range s.engines {
		if err := render(s.enginePage(name), "engine", s.engine(name)); err != nil {
			return err
		}
		written[s.enginePGN(name)] = true
	}
	if err := s.writePGN(dir, recs); err != nil {
		return err
	}
	b, err := TableJSON(t)
	if err != nil {
		return &Error{TableJSONFile, err}
	}
	if err := put(TableJSONFile, b); err != nil {
		return err
	}
	if b, err = TableCSV(t); err != nil {
		return &Error{TableCSVFile, err}
	}
	if err := put(TableCSVFile, b); err != nil {
		return err
	}
	return removeStale(dir, written)
}

// TableJSON is the table as table.json holds it: indented JSON and a newline, the same bytes
// whoever writes it, so that a table recomputed from the records can be compared with the
// published one byte for byte.
func TableJSON(t *ratinglist.Table) ([]byte, error) {
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// csvHeader names table.csv's columns.
var csvHeader = []string{"rank", "player", "name", "version", "status", "elo", "error", "los_next",
	"games", "wins", "draws", "losses", "score", "draw_ratio", "faults", "avg_opponent",
	"first_game", "last_game", "program", "author", "url", "licence", "failure"}

// TableCSV is the table as table.csv holds it: a header line, then one line per row in the
// table's order, numbers as the table holds them (fractions, not percentages); an entrant
// without a rating has its rank, Elo and error empty.
func TableCSV(t *ratinglist.Table) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(csvHeader)
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	stamp := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	for _, r := range t.Rows {
		var rank, rating, margin, los string
		if r.Rated {
			rank, rating, margin = strconv.Itoa(r.Rank), num(r.Elo), num(r.Error)
		}
		if r.LOSNext != nil {
			los = num(*r.LOSNext)
		}
		w.Write([]string{rank, r.Player, r.Name, r.Version, string(r.Status), rating, margin, los,
			strconv.Itoa(r.Games), strconv.Itoa(r.Wins), strconv.Itoa(r.Draws), strconv.Itoa(r.Losses),
			num(r.Score), num(r.DrawRatio()), strconv.Itoa(r.Faults), num(r.AvgOpponent),
			stamp(r.First), stamp(r.Last), r.Program, r.Author, r.URL, r.Licence, r.Failure})
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

// writePGN writes every game to games.pgn and to the PGN file of each engine that played it,
// each game formatted once.
func (s *site) writePGN(dir string, recs []results.Record) (err error) {
	all, err := create(filepath.Join(dir, GamesFile))
	if err != nil {
		return err
	}
	files := []*atomicFile{all}
	defer func() {
		if err != nil {
			for _, f := range files {
				f.abort()
			}
		}
	}()
	byEngine := make(map[string]*atomicFile, len(s.engines))
	for _, name := range s.engines {
		f, err := create(filepath.Join(dir, filepath.FromSlash(s.enginePGN(name))))
		if err != nil {
			return err
		}
		files = append(files, f)
		byEngine[name] = f
	}
	opts := results.PGNOptions{Event: s.list.Name}
	var game bytes.Buffer
	for k := range recs {
		r := &recs[k]
		game.Reset()
		if err := results.WritePGN(&game, r, opts); err != nil {
			return &Error{GamesFile, err}
		}
		all.w.Write(game.Bytes())
		white, black := s.engineOf[r.White.Name], s.engineOf[r.Black.Name]
		if f := byEngine[white]; f != nil {
			f.w.Write(game.Bytes())
		}
		if f := byEngine[black]; f != nil && black != white {
			f.w.Write(game.Bytes())
		}
	}
	for i, f := range files {
		if err := f.commit(); err != nil {
			files = files[i+1:]
			return err
		}
	}
	return nil
}

// atomicFile is a file written under a temporary name in its folder and renamed to its own
// when complete. It is not synced: the site is made again from the records at will, and the
// records are what is kept safe.
type atomicFile struct {
	f    *os.File
	w    *bufio.Writer
	path string
}

func create(path string) (*atomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, &Error{path, err}
	}
	return &atomicFile{f: f, w: bufio.NewWriterSize(f, 64<<10), path: path}, nil
}

func (a *atomicFile) commit() error {
	err := a.w.Flush()
	if err == nil {
		err = a.f.Chmod(0o644) // CreateTemp's 0600 would hide the page from a web server
	}
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(a.f.Name(), a.path)
	}
	if err != nil {
		os.Remove(a.f.Name())
		return &Error{a.path, err}
	}
	return nil
}

func (a *atomicFile) abort() {
	a.f.Close()
	os.Remove(a.f.Name())
}

func writeFile(path string, b []byte) error {
	f, err := create(path)
	if err != nil {
		return err
	}
	if _, err := f.w.Write(b); err != nil {
		f.abort()
		return &Error{path, err}
	}
	return f.commit()
}

// removeStale removes the engine pages and games that this writing did not write: those of
// an engine that has left the list. Nothing else in the folder is the site's to remove.
func removeStale(dir string, written map[string]bool) error {
	entries, err := os.ReadDir(filepath.Join(dir, EnginesDir))
	if err != nil {
		return &Error{dir, err}
	}
	var errs []error
	for _, e := range entries {
		name := EnginesDir + "/" + e.Name()
		ext := filepath.Ext(name)
		if e.Type().IsRegular() && (ext == ".html" || ext == ".pgn") && !written[name] && !strings.HasPrefix(e.Name(), ".") {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				errs = append(errs, &Error{name, err})
			}
		}
	}
	return errors.Join(errs...)
}

// Slugs gives each engine name of the list (an engine's versions share it) the name of its
// pages: lower-case letters, digits and hyphens, different for every engine. Engines whose
// names spell the same slug are told apart by a number, in the list's order.
func Slugs(l *ratinglist.List) map[string]string {
	out := map[string]string{}
	taken := map[string]bool{}
	for _, e := range l.Entrants {
		if _, ok := out[e.Name]; ok {
			continue
		}
		base := slug(e.Name)
		s := base
		for n := 2; taken[s]; n++ {
			s = fmt.Sprintf("%s-%d", base, n)
		}
		taken[s] = true
		out[e.Name] = s
	}
	return out
}

// slug is a name as a part of a file name or an anchor, "engine" for one of no letter a-z or
// digit.
func slug(name string) string { return cmp.Or(ratinglist.Slug(name), "engine") }
