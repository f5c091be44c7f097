package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/ci"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/cli"
	"hivearbiter/results"
)

// testListFile writes a rating list of hivebot's profiles at depth 1 (fast, and the same
// moves for the same position) into dir, with entrants beyond the three given by extra. Each
// entrant benches to depth 1 (quickBench): its check before entering asks for the bench.
func testListFile(t *testing.T, dir string, extra string) string {
	t.Helper()
	text := `name = "test list"
limit = "depth=1"
seed = 3
concurrency = 2
pairs = 2
opponents = 2
error_target = 400
max_games = 12

[anchor]
entrant = "hivebot weak"

[adjudication]
max_plies = 120

[[entrant]]
name = "hivebot"
version = "weak"
engine = "builtin=hivebot option.Profile=weak ` + quickBench + `"

[[entrant]]
name = "hivebot"
version = "wild"
engine = "builtin=hivebot option.Profile=weak option.Aggression=5 ` + quickBench + `"
url = "https://example.org/hivebot"

[[entrant]]
name = "hivebot"
version = "medium"
engine = "builtin=hivebot option.Profile=medium ` + quickBench + `"
` + extra
	path := filepath.Join(dir, "test.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// quickBench is the words that make the bundled engine's bench, which arbiter check asks
// for, search to depth 1: at its default depth of 5 a race-built hivebot takes 25 s to answer,
// and a test of a list's commands checks each entrant once or more.
const quickBench = "arg=-bench-depth=1"

func listKeys(t *testing.T, path string) []string {
	t.Helper()
	recs, err := results.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, r := range recs {
		keys = append(keys, fmt.Sprintf("%s#%d %s-%s %d %s", r.Run, r.Game, r.White.Name, r.Black.Name, r.OpeningIndex, r.Result))
	}
	slices.Sort(keys)
	return keys
}

// The list's commands as a user meets them: run, table, site, verify, and verify failing,
// naming the game, when a move of the records is changed.
func TestListCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	list := testListFile(t, dir, "")
	var stdout, stderr bytes.Buffer
	if err := run(t.Context(), []string{"list", "run", "-q", list}, &stdout, &stderr); err != nil {
		t.Fatalf("list run: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	for _, want := range []string{"Checking hivebot wild under the list's conditions", "batch 1: hivebot wild plays 2 game pairs", "hivebot medium"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("list run's output lacks %q:\n%s", want, stdout.String())
		}
	}
	for _, f := range []string{"test.records.jsonl", "test.checks/hivebot-wild.txt", "test-site/index.html", "test-site/table.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("list run wrote no %s: %v", f, err)
		}
	}
	for _, format := range []string{"text", "markdown", "json"} {
		stdout.Reset()
		if err := run(t.Context(), []string{"list", "table", "-format", format, list}, &stdout, &stderr); err != nil || !strings.Contains(stdout.String(), "hivebot wild") {
			t.Errorf("list table -format %s: %v\n%s", format, err, stdout.String())
		}
	}
	stdout.Reset()
	if err := run(t.Context(), []string{"list", "verify", list}, &stdout, &stderr); err != nil || !strings.Contains(stdout.String(), "is the table the records give") {
		t.Fatalf("list verify: %v\n%s", err, stdout.String())
	}
	stdout.Reset()
	if err := run(t.Context(), []string{"list", "plan", list}, &stdout, &stderr); err != nil || !strings.Contains(stdout.String(), "nothing to play") {
		t.Errorf("list plan after the run: %v\n%s", err, stdout.String())
	}

	// One move changed: verify names that game, and exits 1.
	records := filepath.Join(dir, "test.records.jsonl")
	data, err := os.ReadFile(records)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	k := len(lines) / 2
	recs, _ := results.ReadFile(records)
	quoted := func(move string) string { b, _ := json.Marshal(move); return `{"move":` + string(b) }
	first, second := quoted(recs[k].Moves[1].Move), quoted(recs[k].Moves[3].Move)
	changed := bytes.Replace(lines[k], []byte(second), []byte(first), 1)
	if bytes.Equal(changed, lines[k]) {
		t.Fatalf("could not change a move of record %d", k+1)
	}
	lines[k] = changed
	if err := os.WriteFile(records, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	err = run(t.Context(), []string{"list", "verify", list}, &stdout, &stderr)
	var ee *cli.ExitError
	want := fmt.Sprintf("run %s game %d", recs[k].Run, recs[k].Game+1)
	if !errors.As(err, &ee) || ee.Code != ci.ExitFailure || !strings.Contains(ee.Msg, want) || !strings.Contains(ee.Msg, "1 game does not replay") {
		t.Fatalf("list verify after a move was changed: %v, want exit %d naming %s", err, ci.ExitFailure, want)
	}
}

// A list run SIGKILLed in the middle of a gauntlet and run again ends with the records of a run
// never stopped, no game twice; an entrant added afterwards plays only its own games, the
// records' first bytes unchanged.
func TestListKilledResumedAndGrown(t *testing.T) {
	t.Parallel() // its own files and processes
	wholeDir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run(t.Context(), []string{"list", "run", "-q", testListFile(t, wholeDir, "")}, &stdout, &stderr); err != nil {
		t.Fatalf("unbroken run: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	whole := listKeys(t, filepath.Join(wholeDir, "test.records.jsonl"))

	dir := t.TempDir()
	list := testListFile(t, dir, "")
	records := filepath.Join(dir, "test.records.jsonl")
	killAfterRecords(t, records, len(whole)/2, 2*time.Minute, "list", "run", "-q", list)
	if got := listKeys(t, records); len(got) >= len(whole) {
		t.Fatalf("the run finished before it was killed (%d games): the test proves nothing", len(got))
	}
	if err := run(t.Context(), []string{"list", "run", "-q", list}, &stdout, &stderr); err != nil {
		t.Fatalf("run again: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if got := listKeys(t, records); !slices.Equal(got, whole) {
		t.Fatalf("records after the kill and a second run differ from an unbroken run's:\n got %q\nwant %q", got, whole)
	}

	before, err := os.ReadFile(records)
	if err != nil {
		t.Fatal(err)
	}
	testListFile(t, dir, "[[entrant]]\nname = \"hivebot\"\nversion = \"strong\"\nengine = \"builtin=hivebot option.Profile=strong "+quickBench+"\"\n")
	stdout.Reset()
	if err := run(t.Context(), []string{"list", "run", "-q", list}, &stdout, &stderr); err != nil {
		t.Fatalf("run with an entrant added: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	after, err := os.ReadFile(records)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(after, before) || len(after) == len(before) {
		t.Fatalf("adding an entrant changed the records' first %d bytes, or played nothing (%d bytes after)", len(before), len(after))
	}
	recs, _ := results.ReadFile(records)
	for _, r := range recs[len(whole):] {
		if r.White.Name != "hivebot strong" && r.Black.Name != "hivebot strong" {
			t.Errorf("after hivebot strong entered, game %v (%s vs %s) is not its", r.Key(), r.White.Name, r.Black.Name)
		}
	}
}

// Bad lists are refused with the file, the line and the reason, and nothing is written.
func TestListRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	list := testListFile(t, dir, "[[entrant]]\nname = \"hivebot\"\nversion = \"weak\"\nengine = \"builtin=hivebot\"\n")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"list", "run", list}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), `two entrants are "hivebot weak"`) {
		t.Fatalf("a list with a duplicate entrant: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "test.records.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused list wrote its records file: %v", err)
	}
	list = testListFile(t, dir, "[[entrant]]\nname = \"ghost\"\nversion = \"1\"\nengine = \"cmd="+filepath.Join(dir, "no-such-engine")+"\"\n")
	err = run(context.Background(), []string{"list", "run", list}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "ghost 1 cannot be identified") {
		t.Fatalf("a list with an entrant whose program is missing: %v", err)
	}
}

// Entrants that cannot play are refused, not the list: a fake engine that fails arbiter check
// (its every move is illegal) and one that plays Base alone, entered before a working entrant,
// are refused with their reasons and reports; the entrant after them plays its gauntlet and is
// rated; the table and the site say why the two are not; the run ends with exit 5. Run again,
// it checks neither again and ends as it did.
func TestListRefusesEntrantsAndGoesOn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fake := func(name, scenario string) string {
		return fmt.Sprintf("[[entrant]]\nname = %q\nversion = \"1\"\nengine = 'cmd=%s env=%s'\n\n", name, os.Args[0], uhpfake.Env(fakeConfig(scenario)))
	}
	text := `name = "test list"
limit = "depth=1"
seed = 3
concurrency = 2
pairs = 2
opponents = 2
error_target = 400
max_games = 8

[anchor]
entrant = "hivebot weak"

[adjudication]
max_plies = 120

[[entrant]]
name = "hivebot"
version = "weak"
engine = "builtin=hivebot option.Profile=weak ` + quickBench + `"

` + fake("illegal", "illegal") + fake("base-only", "base-only") + `[[entrant]]
name = "hivebot"
version = "medium"
engine = "builtin=hivebot option.Profile=medium ` + quickBench + `"
`
	list := filepath.Join(dir, "test.toml")
	if err := os.WriteFile(list, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), []string{"list", "run", "-q", list}, &stdout, &stderr)
	var ee *cli.ExitError
	if !errors.As(err, &ee) || ee.Code != ci.ExitEngines {
		t.Fatalf("list run: %v, want exit %d\n%s%s", err, ci.ExitEngines, stdout.String(), stderr.String())
	}
	checkFailed := "arbiter check failed: "
	baseOnly := "it cannot play under the list's conditions (Base+MLP, depth=1): it does not play Mosquito, Ladybug, Pillbug"
	for _, want := range []string{"2 entrants are refused", "illegal 1: " + checkFailed, "base-only 1: " + baseOnly, "test.checks/illegal-1.failed.txt", "Fix them and enter them again"} {
		if !strings.Contains(ee.Msg, want) {
			t.Errorf("the run's error lacks %q:\n%s", want, ee.Msg)
		}
	}
	for _, want := range []string{"illegal 1 is refused: " + checkFailed, "the list goes on without it", "batch 1: hivebot medium plays",
		"illegal 1 (refused): refused before its first game: " + checkFailed, "base-only 1 (refused): refused before its first game: " + baseOnly} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("list run's output lacks %q:\n%s", want, stdout.String())
		}
	}
	reports := map[string]string{"illegal-1.failed.txt": "arbiter check of illegal 1", "base-only-1.failed.txt": "does not play Mosquito, Ladybug, Pillbug"}
	for file, want := range reports {
		if b, err := os.ReadFile(filepath.Join(dir, "test.checks", file)); err != nil || !strings.Contains(string(b), want) {
			t.Errorf("the report %s: %v, lacks %q:\n%s", file, err, want, b)
		}
	}
	records := filepath.Join(dir, "test.records.jsonl")
	games := listKeys(t, records)
	for _, k := range games {
		if strings.Contains(k, "illegal 1") || strings.Contains(k, "base-only 1") {
			t.Errorf("a refused entrant played: %s", k)
		}
	}

	stdout.Reset()
	if err := run(t.Context(), []string{"list", "table", "-format", "json", list}, &stdout, &stderr); err != nil {
		t.Fatalf("list table: %v", err)
	}
	var table struct {
		Rows []struct {
			Player, Status, Failure string
			Rated                   bool
			Games                   int
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &table); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"illegal 1": checkFailed, "base-only 1": baseOnly}
	for _, r := range table.Rows {
		switch {
		case want[r.Player] != "" && (r.Status != "refused" || !strings.Contains(r.Failure, want[r.Player])):
			t.Errorf("%s's row: %+v, want refused for %q", r.Player, r, want[r.Player])
		case r.Player == "hivebot medium" && (!r.Rated || r.Games == 0):
			t.Errorf("the entrant after the refused ones: %+v, want rated", r)
		}
	}
	index, _ := os.ReadFile(filepath.Join(dir, "test-site", "index.html"))
	page, _ := os.ReadFile(filepath.Join(dir, "test-site", "engines", "base-only.html"))
	for _, want := range []string{`<span class="status status-refused" title="refused before its first game: arbiter check failed: `, "<h3>Refused</h3>"} {
		if !strings.Contains(string(index), want) {
			t.Errorf("the site's index lacks %q", want)
		}
	}
	for _, want := range []string{"Refused before its first game: it cannot play under the list&#39;s conditions", "arbiter check of base-only 1"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the base-only entrant's page lacks %q", want)
		}
	}

	// Run again: the refusals hold, nothing is checked or played again, and it ends as before.
	stdout.Reset()
	err = run(t.Context(), []string{"list", "run", "-q", list}, &stdout, &stderr)
	if !errors.As(err, &ee) || ee.Code != ci.ExitEngines || !strings.Contains(ee.Msg, "2 entrants are refused") {
		t.Fatalf("list run again: %v, want exit %d", err, ci.ExitEngines)
	}
	if strings.Contains(stdout.String(), "Checking") || !slices.Equal(listKeys(t, records), games) {
		t.Errorf("run again, the list checked or played again:\n%s", stdout.String())
	}
}
