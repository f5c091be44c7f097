package results

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
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
