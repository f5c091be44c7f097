package results

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// writeRecords writes n sample records to a new records file, then tail (a cut-short line).
func writeRecords(t *testing.T, n int, tail string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.jsonl")
	log, _, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		r := sampleRecord(i)
		r.Settings = map[string]string{"-maxplies": "400"}
		if err := log.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	log.Close()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(tail)
	f.Close()
	return path
}

// TestOpenLogFunc: each record is handed over in order, whole or only what a tally counts;
// a cut tail is removed as OpenLogWith removes it; an error from the function stops the
// reading, comes back as it is, and leaves the file untouched.
func TestOpenLogFunc(t *testing.T) {
	const tail = `{"schema":1,"run":"r1","ga`
	for _, counts := range []bool{false, true} {
		path := writeRecords(t, 3, tail)
		var games []int
		log, err := OpenLogFunc(path, ReadOptions{Counts: counts}, func(r *Record) error {
			games = append(games, r.Game)
			want := sampleRecord(r.Game)
			want.Settings = map[string]string{"-maxplies": "400"}
			if counts {
				want.Moves, want.GameString, want.Settings = nil, "", nil
			}
			if !reflect.DeepEqual(*r, want) {
				t.Errorf("counts %v: read %+v, want %+v", counts, *r, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if d := log.Damage(); d.CutTail != int64(len(tail)) {
			t.Errorf("counts %v: cut tail %d, want %d", counts, d.CutTail, len(tail))
		}
		log.Close()
		if len(games) != 3 || games[0] != 0 || games[2] != 2 {
			t.Errorf("counts %v: games %v, want 0, 1, 2", counts, games)
		}
	}

	path := writeRecords(t, 3, tail)
	before, _ := os.ReadFile(path)
	stop := errors.New("stop")
	calls := 0
	_, err := OpenLogFunc(path, ReadOptions{}, func(*Record) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Errorf("%d calls, error %v; want 1 and the function's own error", calls, err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the file changed after the function stopped the reading")
	}
	if _, err := OpenLogFunc(path, ReadOptions{}, func(*Record) error { return nil }); err != nil {
		t.Errorf("the file is still locked, or damaged: %v", err)
	}
}

// FuzzDecodeCounts: what a tally counts is read the same from a line, whole or not, and a
// line one decoding refuses the other refuses too.
func FuzzDecodeCounts(f *testing.F) {
	r := sampleRecord(3)
	r.Settings = map[string]string{"-maxplies": "400"}
	line, _ := json.Marshal(r)
	f.Add(line)
	f.Add([]byte(`{"schema":1,"moves":[{"move":"]\"}"}],"game":2,"white":{"name":"a"}}`))
	f.Add([]byte(`{"moves":null,"game_string":7,"settings":"x","result":"Draw"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var whole, counted Record
		errWhole, errCounted := decodeRecord(line, &whole, false), decodeRecord(line, &counted, true)
		if errCounted != nil {
			return // the skipped values need not be of the record's types
		}
		if errWhole != nil {
			var te *json.UnmarshalTypeError
			if errors.As(errWhole, &te) && strings.Contains(te.Field, ".") && slices.Contains([]string{"moves", "settings"}, strings.Split(te.Field, ".")[0]) {
				return // an element of a skipped array or object of another type
			}
			t.Fatalf("the whole record is refused (%v), the counted part is not", errWhole)
		}
		whole.Moves, whole.GameString, whole.Settings = nil, "", nil
		if !reflect.DeepEqual(whole, counted) {
			t.Fatalf("counted %+v, whole %+v", counted, whole)
		}
	})
}
