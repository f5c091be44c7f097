package site

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/testkit/golden"
	"hivearbiter/ratinglist"
	"hivearbiter/results"
)

// The fixture's entrants, by the part each plays in the table.
const (
	anchor   = "Alpha 1.0"
	improved = "Alpha 2.0"
	rival    = "Beta 0.9"
	crashing = `Crashy <b>&"bot" 1`
	apartA   = "Delta 1"
	apartB   = "Epsilon 1"
	unplayed = "Zeta 1"
	refused  = "Theta 1"
)

// refusal is why the fixture's refused entrant was not let in.
const refusal = "it cannot play under the list's conditions (Base+MLP, tc=60+0.6): it does not play Mosquito, Ladybug, Pillbug, which Base+MLP needs (it plays Base)"

// fixture is a small list with an entrant of every status, and its games: three engines
// that play each other (one with two versions), one that crashes three games in a row, two
// that play only each other, one that has not played, and one refused (its refusal kept in
// the list's checks folder, as a list run keeps it).
func fixture(t testing.TB) (*ratinglist.List, []results.Record) {
	t.Helper()
	l := &ratinglist.List{
		Name:     "Hive engines at 60+0.6",
		GameType: "Base+MLP",
		Limit:    []string{"tc=60+0.6"},
		Entrants: []ratinglist.Entrant{
			{Name: "Alpha", Version: "1.0", Author: "A. Author", URL: "https://example.com/alpha", Licence: "MIT"},
			{Name: "Beta", Version: "0.9"},
			{Name: `Crashy <b>&"bot"`, Version: "1"},
			{Name: "Alpha", Version: "2.0", Author: "A. Author", URL: "https://example.com/alpha", Licence: "MIT"},
			{Name: "Delta", Version: "1"},
			{Name: "Epsilon", Version: "1"},
			{Name: "Zeta", Version: "1"},
			{Name: "Theta", Version: "1"},
		},
		Anchor: ratinglist.Anchor{Entrant: anchor, Elo: 1000},
		Checks: t.TempDir(),
	}
	if err := l.Normalize(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Refuse(l.Entrants[7], refusal, checks()[refused]); err != nil {
		t.Fatal(err)
	}
	id := l.ID()
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var recs []results.Record
	game := func(day int, white, black, result string, reason results.Reason, culprit string) {
		n := len(recs)
		r := results.Record{
			Schema: results.SchemaVersion, Run: "fixture", Game: n, Round: n/2 + 1, Pair: n / 2,
			White:   results.Player{Name: white, Time: "60+0.6", Program: "program of " + white},
			Black:   results.Player{Name: black, Time: "60+0.6", Program: "program of " + black},
			Opening: "Base+MLP;InProgress;Black[1];wS1", OpeningIndex: 0, GameType: "Base+MLP",
			Moves:  []results.Move{{Move: "bS1 -wS1", Millis: 120}, {Move: "wQ wS1/", Millis: 250}},
			Result: result, Reason: reason, Culprit: culprit, Detail: string(reason),
			Started:  start.Add(time.Duration(day)*24*time.Hour + time.Duration(n)*time.Minute),
			Finished: start.Add(time.Duration(day)*24*time.Hour + time.Duration(n)*time.Minute + 50*time.Second),
			Settings: map[string]string{ratinglist.LabelList: id},
		}
		recs = append(recs, r)
	}
	const (
		w, b, d = results.WhiteWins, results.BlackWins, results.Draw
		queen   = results.ReasonQueenSurrounded
	)
	// A pattern of results for each pairing, from the first player's point of view, with the
	// colours alternating as in game pairs.
	play := func(day int, a, c string, scores string) {
		for i, s := range scores {
			white, black := a, c
			if i%2 == 1 {
				white, black = c, a
			}
			result, reason := d, results.ReasonRepetition
			switch {
			case s == '1' && white == a, s == '0' && white == c:
				result, reason = w, queen
			case s != '=':
				result, reason = b, queen
			}
			game(day, white, black, result, reason, "")
		}
	}
	play(0, anchor, rival, "10=1=0110=1")
	play(1, anchor, crashing, "1=10")
	game(1, crashing, anchor, b, results.ReasonCrash, "White")
	game(1, anchor, crashing, w, results.ReasonCrash, "Black")
	game(1, crashing, rival, b, results.ReasonCrash, "White")
	play(3, improved, anchor, "1=1=01=1")
	play(4, improved, rival, "11=0=1")
	play(4, apartA, apartB, "1=01")
	return l, recs
}

// checks are the check reports kept, all but the crashing engine's.
func checks() map[string]string {
	return map[string]string{
		anchor:   "arbiter check: 12 passed, 0 failed\n  <bestmove> in time: ok",
		improved: "arbiter check: 12 passed, 0 failed",
		rival:    "arbiter check: 11 passed, 1 failed (pondering)",
		refused:  "arbiter check: 12 passed, 0 failed\nTried as its first game of the list would start it, " + refusal + ".",
	}
}

func compute(t testing.TB) (*ratinglist.List, *ratinglist.Table, []results.Record) {
	t.Helper()
	l, recs := fixture(t)
	table, err := ratinglist.Compute(l, recs)
	if err != nil {
		t.Fatal(err)
	}
	return l, table, recs
}

// TestFixture: the fixture has an entrant of each status, which the tests below rely on.
func TestFixture(t *testing.T) {
	_, table, _ := compute(t)
	want := map[string]ratinglist.Status{anchor: ratinglist.StatusAnchor, crashing: ratinglist.StatusFailed,
		apartA: ratinglist.StatusApart, apartB: ratinglist.StatusApart, unplayed: ratinglist.StatusUnplayed,
		refused: ratinglist.StatusRefused}
	for p, s := range want {
		if r, _ := table.Row(p); r.Status != s {
			t.Errorf("%s: status %s, want %s", p, r.Status, s)
		}
	}
	for _, p := range []string{improved, rival} {
		if r, _ := table.Row(p); !r.Rated {
			t.Errorf("%s is not rated", p)
		}
	}
}

func TestWriteConsole(t *testing.T) {
	l, table, _ := compute(t)
	var b bytes.Buffer
	if err := WriteConsole(&b, l, table); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "console.txt"), b.Bytes())
}

func TestWriteMarkdown(t *testing.T) {
	l, table, _ := compute(t)
	var b bytes.Buffer
	if err := WriteMarkdown(&b, l, table); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "table.md"), b.Bytes())
}

func TestSlugs(t *testing.T) {
	l := &ratinglist.List{Entrants: []ratinglist.Entrant{
		{Name: "Alpha", Version: "1"}, {Name: "Alpha", Version: "2"}, {Name: "ALPHA!"},
		{Name: "  Nokamute (UHP)  "}, {Name: "Zoë"}, {Name: "日本"}, {Name: "alpha-2"}, {Name: "..."},
	}}
	want := map[string]string{"Alpha": "alpha", "ALPHA!": "alpha-2", "  Nokamute (UHP)  ": "nokamute-uhp",
		"Zoë": "zo", "日本": "engine", "alpha-2": "alpha-2-2", "...": "engine-2"}
	if got := Slugs(l); !reflect.DeepEqual(got, want) {
		t.Errorf("Slugs = %v, want %v", got, want)
	}
}

// siteFiles are the files a site of the fixture must hold.
var siteFiles = []string{"index.html", "head-to-head.html", "games.pgn", "table.json", "table.csv",
	"engines/alpha.html", "engines/alpha.pgn", "engines/beta.html", "engines/beta.pgn",
	"engines/crashy-b-bot.html", "engines/crashy-b-bot.pgn", "engines/delta.html", "engines/epsilon.html",
	"engines/delta.pgn", "engines/epsilon.pgn", "engines/zeta.html", "engines/zeta.pgn", "engines/theta.html", "engines/theta.pgn"}

func TestWrite(t *testing.T) {
	l, table, recs := compute(t)
	dir := filepath.Join(t.TempDir(), "site")
	if err := Write(dir, l, table, recs, checks()); err != nil {
		t.Fatal(err)
	}
	for _, name := range siteFiles {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("missing %s: %v", name, err)
		}
	}
	pages := htmlPages(t, dir)
	if len(pages) != 9 {
		t.Errorf("%d pages, want 9: %v", len(pages), pages)
	}
	for _, page := range pages {
		checkSelfContained(t, dir, page)
	}

	t.Run("table.json", func(t *testing.T) {
		b := read(t, dir, "table.json")
		want, err := TableJSON(table)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, want) {
			t.Error("table.json is not TableJSON's bytes")
		}
		if direct, _ := json.MarshalIndent(table, "", "  "); !bytes.Equal(b, append(direct, '\n')) {
			t.Error("table.json is not json.MarshalIndent(t, \"\", \"  \") and a newline")
		}
		var back ratinglist.Table
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&back, table) {
			t.Errorf("table.json reads back as\n%+v\nwant\n%+v", back, *table)
		}
	})

	t.Run("table.csv", func(t *testing.T) {
		lines, err := csv.NewReader(bytes.NewReader(read(t, dir, "table.csv"))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != len(table.Rows)+1 || !reflect.DeepEqual(lines[0], csvHeader) {
			t.Fatalf("table.csv: %d lines, header %v", len(lines), lines[0])
		}
		for i, r := range table.Rows {
			if lines[i+1][1] != r.Player || lines[i+1][4] != string(r.Status) {
				t.Errorf("line %d: %v, want %s (%s)", i+2, lines[i+1], r.Player, r.Status)
			}
		}
	})

	t.Run("PGN", func(t *testing.T) {
		count := func(name string) int { return strings.Count(string(read(t, dir, name)), "[GameType ") }
		if n := count("games.pgn"); n != len(recs) {
			t.Errorf("games.pgn holds %d games, want %d", n, len(recs))
		}
		want := map[string]int{"engines/zeta.pgn": 0, "engines/theta.pgn": 0}
		for _, r := range recs {
			for f := range map[string]bool{engineFile(r.White.Name): true, engineFile(r.Black.Name): true} {
				want[f]++
			}
		}
		for name, n := range want {
			if got := count(name); got != n {
				t.Errorf("%s holds %d games, want %d", name, got, n)
			}
		}
		var one bytes.Buffer
		results.WritePGN(&one, &recs[0], results.PGNOptions{Event: l.Name})
		if !bytes.HasPrefix(read(t, dir, "games.pgn"), one.Bytes()) {
			t.Error("games.pgn does not start with the first game as results.WritePGN writes it")
		}
	})

	t.Run("pages", func(t *testing.T) {
		index := string(read(t, dir, "index.html"))
		for _, want := range []string{"Alpha", "Base&#43;MLP", "tc=60&#43;0.6", "Alpha 1.0 = 1000", "White's advantage of moving first, as the games show it: &#43;44 ± 123 Elo", "</a>: stopped after 3 games in a row",
			`<span class="status status-failed" title="stopped after 3 games in a row lost by crash (the last: crash)">failed</span>`, `<span class="status status-apart">apart</span>`,
			`<span class="status status-unplayed">unplayed</span>`, "Delta 1, Epsilon 1", "Updated 2026-03-05",
			`<span class="status status-refused" title="refused before its first game: ` + escaped(refusal) + `">refused</span>`,
			`<h3>Refused</h3>`, `<a href="engines/theta.html#v-1">Theta 1</a>: ` + escaped(refusal) + ` (its check report is on its page).`,
			"Crashy &lt;b&gt;&amp;&#34;bot&#34;"} {
			if !strings.Contains(index, want) {
				t.Errorf("index.html lacks %q", want)
			}
		}
		if strings.Contains(index, "<b>&") {
			t.Error("index.html holds an engine's name unescaped")
		}
		for _, r := range table.Rows {
			if !strings.Contains(index, `data-player="`+html.EscapeString(r.Player)+`"`) {
				t.Errorf("index.html has no row for %s", r.Player)
			}
		}
		alpha := string(read(t, dir, "engines/alpha.html"))
		for _, want := range []string{"<svg", "Alpha 1.0", "Alpha 2.0", "&lt;bestmove&gt; in time", `href="https://example.com/alpha"`,
			`href="alpha.pgn"`, `href="beta.html#v-0-9"`, `<h2 id="v-2-0">Alpha 2.0</h2>`} {
			if !strings.Contains(alpha, want) {
				t.Errorf("engines/alpha.html lacks %q", want)
			}
		}
		if n := strings.Count(alpha, "<circle "); n != 2 {
			t.Errorf("the chart of Alpha has %d points, want 2 (one per version)", n)
		}
		crashy := string(read(t, dir, "engines/crashy-b-bot.html"))
		for _, want := range []string{"no check report kept", "Stopped after 3 games in a row lost by crash"} {
			if !strings.Contains(crashy, want) {
				t.Errorf("the crashing engine's page lacks %q", want)
			}
		}
		theta := string(read(t, dir, "engines/theta.html"))
		for _, want := range []string{"Refused before its first game: " + escaped(refusal) + ".", "Tried as its first game of the list would start it",
			`<span class="status status-refused">refused</span>`} {
			if !strings.Contains(theta, want) {
				t.Errorf("the refused engine's page lacks %q", want)
			}
		}
		if zeta := string(read(t, dir, "engines/zeta.html")); !strings.Contains(zeta, "No version has a rating yet") {
			t.Error("the unplayed engine's page draws a chart")
		}
		h2h := string(read(t, dir, "head-to-head.html"))
		// Alpha 1.0 against Beta 0.9: 10=1=0110=1 is 6.5 points of 11.
		if !strings.Contains(h2h, `title="Alpha 1.0 against Beta 0.9: 5 won, 3 drawn, 3 lost">6.5/11</td>`) {
			t.Error("head-to-head.html lacks Alpha 1.0's score against Beta 0.9")
		}
	})
}

// TestChart: the chart's ticks are in order and each date is named once, its points inside
// the plot, whatever the span of the versions' first games.
func TestChart(t *testing.T) {
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, span := range []time.Duration{0, time.Hour, 30 * time.Hour, 5 * 24 * time.Hour, 40 * 24 * time.Hour, 3 * 365 * 24 * time.Hour} {
		rows := []ratinglist.Row{
			{Player: "E 1", Version: "1", Rated: true, Elo: 1000, Status: ratinglist.StatusAnchor, First: start},
			{Player: "E 2", Version: "2", Rated: true, Elo: 1090, Error: 40, Status: ratinglist.StatusRated, First: start.Add(span)},
			{Player: "E 3", Version: "3", Status: ratinglist.StatusUnplayed},
		}
		c := newChart(rows)
		if len(c.Points) != 2 || len(c.XTicks) < 1 || len(c.XTicks) > 7 || len(c.YTicks) < 2 {
			t.Errorf("span %v: %d points, %d date ticks, %d Elo ticks", span, len(c.Points), len(c.XTicks), len(c.YTicks))
			continue
		}
		for i := 1; i < len(c.XTicks); i++ {
			if c.XTicks[i].At <= c.XTicks[i-1].At || c.XTicks[i].Label == c.XTicks[i-1].Label {
				t.Errorf("span %v: date ticks %v", span, c.XTicks)
			}
		}
		for _, p := range c.Points {
			if p.X < c.Left || p.X > c.Right || p.High < c.Top || p.Low > c.Base {
				t.Errorf("span %v: point %+v outside the plot %+v", span, p, *c)
			}
		}
		if c.Points[0].Bar || !c.Points[1].Bar {
			t.Errorf("span %v: error bars %v %v, want the anchor's alone without", span, c.Points[0].Bar, c.Points[1].Bar)
		}
	}
	if newChart([]ratinglist.Row{{Player: "E 1", Status: ratinglist.StatusUnplayed}}) != nil {
		t.Error("a chart for an engine without a rating")
	}
}

// TestWriteEscapes: what a list's file says of an entrant is text, never markup or script.
func TestWriteEscapes(t *testing.T) {
	l, recs := fixture(t)
	l.Entrants[1].URL = "javascript:alert(1)"
	l.Entrants[1].Author = "<script>alert(1)</script>"
	table, err := ratinglist.Compute(l, recs)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	reports := checks()
	reports[rival] = "</pre><script>alert(1)</script>"
	if err := Write(dir, l, table, recs, reports); err != nil {
		t.Fatal(err)
	}
	for _, page := range htmlPages(t, dir) {
		b := string(read(t, dir, page))
		if strings.Contains(b, `href="javascript:`) || strings.Contains(b, "<script") {
			t.Errorf("%s carries an entrant's script", page)
		}
		checkSelfContained(t, dir, page)
	}
	if beta := string(read(t, dir, "engines/beta.html")); !strings.Contains(beta, "&lt;/pre&gt;&lt;script&gt;") {
		t.Error("the check report is not shown as text")
	}
}

// escaped is text as html/template writes it in an element or an attribute.
func escaped(s string) string { return strings.ReplaceAll(html.EscapeString(s), "+", "&#43;") }

func engineFile(player string) string {
	name, _, _ := strings.Cut(player, " ")
	if strings.HasPrefix(player, "Crashy") {
		return "engines/crashy-b-bot.pgn"
	}
	return "engines/" + strings.ToLower(name) + ".pgn"
}

// TestWriteAgain: a site written over an older one replaces every file, leaves no temporary
// file, and removes the pages of an engine no longer on the list.
func TestWriteAgain(t *testing.T) {
	l, table, recs := compute(t)
	dir := t.TempDir()
	if err := Write(dir, l, table, recs, nil); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "engines", "gone.html"), []byte("old"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("the owner's"), 0o644)
	if err := Write(dir, l, table, recs, checks()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "engines", "gone.html")); !os.IsNotExist(err) {
		t.Error("the page of an engine no longer on the list is still there")
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Error("a file that is not the site's was removed")
	}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".") {
			t.Errorf("left behind: %s", path)
		}
		if err == nil && d.Type().IsRegular() {
			if info, _ := d.Info(); info.Mode().Perm()&0o044 != 0o044 {
				t.Errorf("%s is not readable by all (%v): a web server could not serve it", path, info.Mode())
			}
		}
		return err
	})
	if !strings.Contains(string(read(t, dir, "engines/beta.html")), "11 passed, 1 failed") {
		t.Error("the second writing did not replace the engine pages")
	}
}

// TestWriteEmpty: a list without games has a site too.
func TestWriteEmpty(t *testing.T) {
	l, _ := fixture(t)
	table, err := ratinglist.Compute(l, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Write(dir, l, table, nil, nil); err != nil {
		t.Fatal(err)
	}
	if index := string(read(t, dir, "index.html")); !strings.Contains(index, "Updated no game yet") {
		t.Error("the index of a list without games does not say so")
	}
	for _, page := range htmlPages(t, dir) {
		checkSelfContained(t, dir, page)
	}
}

func read(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func htmlPages(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && filepath.Ext(path) == ".html" {
			rel, _ := filepath.Rel(dir, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	return out
}

var (
	tagPattern  = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9]*)\b([^>]*)>`)
	attrPattern = regexp.MustCompile(`\s([a-zA-Z:-]+)="([^"]*)"`)
	idPattern   = regexp.MustCompile(`\sid="([^"]*)"`)
)

// checkSelfContained fails the test if a page loads anything (a script, a style sheet, an
// image, a font) from anywhere, or links to a file of the site that is not there. Links to
// other sites are allowed in <a> alone: an entrant's home page.
func checkSelfContained(t *testing.T, dir, page string) {
	t.Helper()
	b := string(read(t, dir, page))
	for _, bad := range []string{"<script", "<link", "<iframe", "<img", "@import", "url(", "@font-face"} {
		if strings.Contains(strings.ToLower(b), bad) {
			t.Errorf("%s holds %q: a page loads nothing", page, bad)
		}
	}
	ids := map[string]bool{}
	for _, m := range idPattern.FindAllStringSubmatch(b, -1) {
		ids[html.UnescapeString(m[1])] = true
	}
	for _, tag := range tagPattern.FindAllStringSubmatch(b, -1) {
		for _, a := range attrPattern.FindAllStringSubmatch(tag[2], -1) {
			name, value := strings.ToLower(a[1]), html.UnescapeString(a[2])
			if name != "href" && name != "src" && name != "xlink:href" && name != "action" {
				continue
			}
			external := strings.Contains(value, "//") || strings.Contains(value, ":")
			switch {
			case external && (tag[1] != "a" || name != "href"):
				t.Errorf("%s: <%s %s=%q> loads from elsewhere", page, tag[1], name, value)
			case external && !strings.HasPrefix(value, "https://example.com/"):
				t.Errorf("%s: a link to %q, which is no entrant's", page, value)
			case external:
			case strings.HasPrefix(value, "#"):
				if !ids[value[1:]] {
					t.Errorf("%s: a link to %q, which is no id of the page", page, value)
				}
			default:
				file, fragment, _ := strings.Cut(value, "#")
				target, err := os.ReadFile(filepath.Join(dir, filepath.Dir(page), filepath.FromSlash(file)))
				switch {
				case err != nil:
					t.Errorf("%s: a link to %q, which is not written", page, value)
				case fragment != "" && !strings.Contains(string(target), ` id="`+fragment+`"`):
					t.Errorf("%s: a link to %q, which is no id of that page", page, value)
				}
			}
		}
	}
}
