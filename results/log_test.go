package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hivearbiter/internal/testkit/testenv"
)

func sampleRecord(game int) Record {
	clock := int64(9500)
	return Record{
		Schema: SchemaVersion, Run: "r1", Game: game, Round: 1 + game/2, Pair: game / 2,
		White:   Player{Name: "alpha", ID: "alpha v1", Time: "10+0.1"},
		Black:   Player{Name: "beta", ID: "beta v2", Time: "10+0.1"},
		Opening: "Base;InProgress;Black[1];wS1", OpeningIndex: 0, GameType: "Base",
		Moves:  []Move{{Move: "bS1 wS1-", Millis: 512, ClockMillis: &clock}, {Move: "wQ -wS1", Millis: 1002}},
		Result: WhiteWins, Reason: ReasonTimeForfeit, Culprit: "Black",
		Detail:     "Black loses on time (37 ms overrun)",
		GameString: "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1",
		Started:    time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC),
		Finished:   time.Date(2026, 11, 22, 10, 0, 5, 0, time.UTC),
		Arbiter:    "test", Seed: 7,
	}
}

func TestLogAppendAndReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	log, recs, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 0 {
		t.Fatalf("new log has %d records", len(recs))
	}
	for i := 0; i < 3; i++ {
		r := sampleRecord(i)
		if err := log.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	log, recs, err = OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	if len(recs) != 3 || recs[2].Game != 2 || recs[1].Moves[0].Move != "bS1 wS1-" || *recs[0].Moves[0].ClockMillis != 9500 {
		t.Fatalf("reopened records = %+v", recs)
	}
}

func TestLogRepairsTruncatedTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	log, _, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	r := sampleRecord(0)
	if err := log.Append(&r); err != nil {
		t.Fatal(err)
	}
	log.Close()
	// A process killed in the middle of a write leaves half a line.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"schema":1,"run":"r1","game":1,"resu`)
	f.Close()

	log, recs, err := OpenLog(path)
	if err != nil {
		t.Fatalf("reopen after torn write: %v", err)
	}
	if len(recs) != 1 {
		t.Fatalf("got %d records, want the 1 complete one", len(recs))
	}
	r = sampleRecord(1)
	if err := log.Append(&r); err != nil {
		t.Fatal(err)
	}
	log.Close()
	recs, err = ReadFile(path)
	if err != nil || len(recs) != 2 || recs[1].Game != 1 {
		t.Fatalf("after repair and append: %d records, err %v", len(recs), err)
	}
}

func TestLogRefusesCorruptMiddle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	content := "{\"schema\":1,\"game\":0}\nnot json\n{\"schema\":1,\"game\":2}\n"
	os.WriteFile(path, []byte(content), 0o644)
	_, _, err := OpenLog(path)
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 {
		t.Fatalf("err = %v, want a LineError at line 2", err)
	}
	after, _ := os.ReadFile(path)
	if string(after) != content {
		t.Fatal("a corrupt file was modified")
	}
}

func TestLogRefusesOtherSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	os.WriteFile(path, []byte("{\"schema\":99,\"game\":0}\n"), 0o644)
	if _, err := ReadFile(path); err == nil {
		t.Fatal("a record of an unknown schema was accepted")
	}
}

func TestReadFilesMerges(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, games ...int) string {
		p := filepath.Join(dir, name)
		l, _, err := OpenLog(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			r := sampleRecord(g)
			l.Append(&r)
		}
		l.Close()
		return p
	}
	a := write("a.jsonl", 2, 0)
	b := write("b.jsonl", 1, 2, 3)
	recs, err := ReadFiles(a, b)
	if err != nil {
		t.Fatal(err)
	}
	var games []int
	for _, r := range recs {
		games = append(games, r.Game)
	}
	if len(games) != 4 || games[0] != 0 || games[3] != 3 {
		t.Fatalf("merged games = %v, want [0 1 2 3]", games)
	}

	c := filepath.Join(dir, "c.jsonl")
	l, _, _ := OpenLog(c)
	r := sampleRecord(1)
	r.Result = Draw
	l.Append(&r)
	l.Close()
	if _, err := ReadFiles(a, b, c); err == nil {
		t.Fatal("conflicting records of one game were merged silently")
	}
}

func TestRecordScores(t *testing.T) {
	r := sampleRecord(0)
	tests := []struct {
		result      string
		white, beta float64
	}{{WhiteWins, 1, 0}, {BlackWins, 0, 1}, {Draw, 0.5, 0.5}}
	for _, tc := range tests {
		r.Result = tc.result
		if r.WhiteScore() != tc.white || r.ScoreOf("beta") != tc.beta {
			t.Errorf("%s: white %v beta %v", tc.result, r.WhiteScore(), r.ScoreOf("beta"))
		}
	}
}

// TestLogRefusesSecondWriter: two runs appending to one records file would interleave their
// bytes; the second is refused while the first holds the file, and may go on after it closes.
func TestLogRefusesSecondWriter(t *testing.T) {
	path := filepath.Join(testenv.TempDir(t), "games.jsonl")
	first, _, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = OpenLog(path)
	var le *LockedError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "another run") {
		t.Fatalf("second writer: %v, want a LockedError", err)
	}
	first.Close()
	second, _, err := OpenLog(path)
	if err != nil {
		t.Fatalf("after the first writer closed: %v", err)
	}
	second.Close()
}

// TestLogSaysWhatItRepaired: OpenLog removes a cut-short last line and says so in Damage; with
// SkipBad it passes over a corrupt line in the middle, leaves it in the file, and says so.
func TestLogSaysWhatItRepaired(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	r0, r2 := sampleRecord(0), sampleRecord(2)
	b0, _ := json.Marshal(&r0)
	b2, _ := json.Marshal(&r2)
	content := string(b0) + "\nnot json\n" + string(b2) + "\n" + `{"schema":1,"ga`
	os.WriteFile(path, []byte(content), 0o644)
	log, recs, err := OpenLogWith(path, ReadOptions{SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	d := log.Damage()
	if len(recs) != 2 || len(d.Skipped) != 1 || d.Skipped[0].Line != 2 || d.CutTail != 15 {
		t.Fatalf("%d records, damage %+v", len(recs), d)
	}
	text := strings.Join(d.Lines(true), "\n")
	for _, want := range []string{"skipped 1 line(s)", "line 2", "cut short", "removed it from the file"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q lacks %q", text, want)
		}
	}
	after, _ := os.ReadFile(path)
	if string(after) != strings.TrimSuffix(content, `{"schema":1,"ga`) {
		t.Errorf("file after repair: %q", after)
	}
}

// TestCreateLockedRefusesSecondWriter: two runs writing one PGN file would interleave games; the
// second is refused before it truncates the first one's file.
func TestCreateLockedRefusesSecondWriter(t *testing.T) {
	path := filepath.Join(testenv.TempDir(t), "games.pgn")
	first, err := CreateLocked(path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	first.WriteString("[GameType \"Base\"]\n")
	_, err = CreateLocked(path)
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("second writer: %v, want a LockedError", err)
	}
	if data, _ := os.ReadFile(path); len(data) == 0 {
		t.Error("the second writer truncated the first one's file")
	}
}

// TestReadFileOfLiveRun: a file that a run is writing ends in a line under way; a reader says
// so rather than call it the damage of a killed run.
func TestReadFileOfLiveRun(t *testing.T) {
	path := filepath.Join(testenv.TempDir(t), "games.jsonl")
	log, _, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	r := sampleRecord(0)
	log.Append(&r)
	log.f.WriteString(`{"schema":1,"ga`) // as if caught in the middle of a write
	_, d, err := ReadFileWith(path, ReadOptions{})
	if err != nil || !d.Live || !strings.Contains(strings.Join(d.Lines(false), "\n"), "a run is writing this file") {
		t.Errorf("%v, damage %+v: %q", err, d, d.Lines(false))
	}
}

// TestLinesLog: a file of other lines than game records (a tune's) is a Log too: locked against
// a second writer, each line handed on with its number and nothing trimmed or skipped, a
// cut-short last line removed from the file on opening and only ignored on reading, and an
// error from the reader leaving the file as it was.
func TestLinesLog(t *testing.T) {
	path := filepath.Join(testenv.TempDir(t), "tune.jsonl")
	log, err := OpenLines(path, func(int, []byte) error { return errors.New("a new file has no lines") })
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{map[string]int{"header": 1}, []int{2}} {
		if err := log.AppendJSON(v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := OpenLines(path, func(int, []byte) error { return nil }); !errors.As(err, new(*LockedError)) {
		t.Errorf("second writer: %v, want a *LockedError", err)
	}
	log.f.WriteString(` [3`) // as if killed in the middle of a write
	var read []string
	d, err := ReadLines(path, func(n int, b []byte) error {
		read = append(read, fmt.Sprintf("%d:%s", n, b))
		return nil
	})
	if want := []string{`1:{"header":1}`, `2:[2]`}; err != nil || !slices.Equal(read, want) || d.CutTail != 3 || !d.Live {
		t.Errorf("read %q, damage %+v, %v; want %q, a live tail of 3 bytes", read, d, err, want)
	}
	log.Close()

	refuse := errors.New("not this file")
	if _, err := OpenLines(path, func(n int, _ []byte) error { return refuse }); err != refuse {
		t.Errorf("a reader's error: %v, want it as it was", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "{\"header\":1}\n[2]\n [3" {
		t.Errorf("a refused file was changed: %q", b)
	}
	read = nil
	log, err = OpenLines(path, func(n int, b []byte) error {
		read = append(read, string(b))
		return nil
	})
	if err != nil || len(read) != 2 || log.Damage().CutTail != 3 {
		t.Fatalf("reopened: %q, damage %+v, %v; want 2 lines and the 3-byte tail removed", read, log.Damage(), err)
	}
	log.AppendJSON("blank lines are handed on")
	log.f.WriteString("\n")
	log.Close()
	read = nil
	if _, err := ReadLines(path, func(n int, b []byte) error {
		read = append(read, string(b))
		return nil
	}); err != nil || !slices.Equal(read, []string{`{"header":1}`, `[2]`, `"blank lines are handed on"`, ``}) {
		t.Errorf("after the repair and a line: %q, %v", read, err)
	}
}

// TestReadFileFrom: a file that grows is read on from where the last reading stopped: the
// records after it only, and a last line cut short not at all until its newline is written.
func TestReadFileFrom(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	line := func(game int) string {
		b, err := json.Marshal(sampleRecord(game))
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	write := func(text string) {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	read := func(from int64) (int64, []int) {
		var games []int
		next, _, err := ReadFileFrom(path, from, ReadOptions{Counts: true}, func(r *Record) error {
			if r.Moves != nil {
				t.Errorf("game %d: its moves were decoded for a count", r.Game)
			}
			games = append(games, r.Game)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return next, games
	}
	write(line(0) + line(1))
	third := line(2)
	write(third[:40]) // a write under way
	next, games := read(0)
	if want := int64(len(line(0)) + len(line(1))); next != want || !slices.Equal(games, []int{0, 1}) {
		t.Fatalf("first reading: games %v up to %d, want [0 1] up to %d", games, next, want)
	}
	write(third[40:] + line(3))
	next2, games := read(next)
	if !slices.Equal(games, []int{2, 3}) {
		t.Errorf("reading on from %d: games %v, want [2 3]", next, games)
	}
	if info, err := os.Stat(path); err != nil || next2 != info.Size() {
		t.Errorf("reading on stopped at %d, want the file's end (%v)", next2, info.Size())
	}
	if next3, games := read(next2); next3 != next2 || len(games) != 0 {
		t.Errorf("reading at the end: games %v up to %d, want none up to %d", games, next3, next2)
	}
}
