package report

import (
	"bufio"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"hivearbiter/results"
)

func TestListenRefusesPublicAddresses(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:8080", "[::]:0", "example.com:80"} {
		if ln, err := Listen(addr, false); !errors.Is(err, ErrPublicAddress) {
			if ln != nil {
				ln.Close()
			}
			t.Errorf("Listen(%q) = %v, want ErrPublicAddress", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0"} {
		ln, err := Listen(addr, false)
		if err != nil {
			t.Errorf("Listen(%q): %v", addr, err)
			continue
		}
		ln.Close()
	}
	ln, err := Listen("0.0.0.0:0", true)
	if err != nil {
		t.Fatalf("Listen with public set: %v", err)
	}
	ln.Close()
}

func TestLiveIsReadOnly(t *testing.T) {
	srv := httptest.NewServer(NewLive(Options{}))
	defer srv.Close()
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		req, _ := http.NewRequest(method, srv.URL+"/", strings.NewReader("x"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s: status %d, want 405", method, resp.StatusCode)
		}
	}
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /: status %d", resp.StatusCode)
	}
}

// sseReader reads server-sent events.
type sseReader struct{ *bufio.Reader }

func (r sseReader) next(t *testing.T) (event, data string) {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the event stream: %v", err)
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "event: "):
			event = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			data = line[len("data: "):]
		case line == "" && event != "":
			return event, data
		}
	}
}

// TestLiveEvents follows a game through the event stream: the snapshot, its start, a move with
// the referee's delta, and its end with the new standings.
func TestLiveEvents(t *testing.T) {
	rec := synthetic{engines: []string{"a", "b"}, games: 1, minPlies: 6, maxPlies: 6, times: []string{"10+0.1"}}.
		records(rand.New(rand.NewPCG(5, 5)))[0]
	live := NewLive(Options{Engines: []string{"a", "b"}, Planned: 2})
	srv := httptest.NewServer(live)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := sseReader{bufio.NewReader(resp.Body)}
	if ev, data := events.next(t); ev != "snapshot" || !strings.Contains(data, `"planned":2`) {
		t.Fatalf("first event %s %s, want a snapshot", ev, data)
	}
	live.GameStarted(rec.Game, rec.White, rec.Black, rec.Opening)
	if ev, data := events.next(t); ev != "start" || !strings.Contains(data, `"clock0":[10000,10000]`) {
		t.Errorf("got %s %s, want the start with both clocks", ev, data)
	}
	want := Build([]results.Record{rec}, Options{}).List[0]
	live.MovePlayed(rec.Game, rec.Moves[0])
	ev, data := events.next(t)
	if x := want.Deltas[want.OpeningPlies*deltaWidth : (want.OpeningPlies+1)*deltaWidth]; ev != "move" || !strings.Contains(data, `"x":"`+x+`"`) {
		t.Errorf("got %s %s, want the move with delta %s", ev, data, x)
	}
	for _, m := range rec.Moves[1:] {
		live.MovePlayed(rec.Game, m)
		events.next(t)
	}
	live.GameFinished(&rec)
	if ev, data := events.next(t); ev != "finish" || !strings.Contains(data, `"x":"`+want.Deltas+`"`) || !strings.Contains(data, `"games":1`) {
		t.Errorf("got %s %s, want the finished game and the standings", ev, data)
	}
}

// TestLiveEngineOrder checks that a live page that learns its engines as games start, in an
// order other than the records', names the same first engine in its tables and its curves.
func TestLiveEngineOrder(t *testing.T) {
	recs := synthetic{engines: []string{"a", "b"}, games: 2, minPlies: 4, maxPlies: 4, times: []string{"st=1"}}.
		records(rand.New(rand.NewPCG(5, 5)))
	live := NewLive(Options{})
	live.GameStarted(recs[1].Game, recs[1].White, recs[1].Black, recs[1].Opening) // b plays White
	live.GameFinished(&recs[0])                                                   // a played White
	live.GameFinished(&recs[1])
	d := live.Data()
	if d.Engines[0] != "b" || d.Progress.Elo[0].Engine != "b" || !strings.Contains(d.Tables, "Results of b vs a") || d.Timing[0].Engine != "b" {
		t.Errorf("engines %v, Elo curve of %s, time table first %s, tables:\n%s", d.Engines, d.Progress.Elo[0].Engine, d.Timing[0].Engine, d.Tables)
	}
}
