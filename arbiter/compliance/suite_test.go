package compliance

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// engineStub is an engine under check that counts its starts and closes.
type engineStub struct {
	id     int
	closed *int
}

func (e engineStub) Close(context.Context) error {
	*e.closed++
	return nil
}

// A session starts the engine afresh only after a failed check (or when a check asks), and
// closes every engine it started.
func TestSessionRestartsAfterAFailure(t *testing.T) {
	starts, closes := 0, 0
	s := NewSession(t.Context(), Options{}, func(context.Context) (engineStub, error) {
		starts++
		return engineStub{id: starts, closed: &closes}, nil
	})
	ids := func(names ...string) []int {
		var got []int
		for _, name := range names {
			e, ok := s.Engine(name)
			if !ok {
				t.Fatalf("%s: no engine", name)
			}
			got = append(got, e.id)
		}
		return got
	}
	if e, err := s.Begin("start"); err != nil || e.id != 1 {
		t.Fatalf("Begin: %v, %v", e, err)
	}
	s.Pass("start", "")
	got := ids("a")
	s.Pass("a", "")
	got = append(got, ids("b")...)
	s.Fail("b", "broken")
	got = append(got, ids("c")...)
	s.Skip("c", "moot")
	got = append(got, ids("d")...)
	s.Restart()
	got = append(got, ids("e")...)
	if want := []int{1, 1, 2, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("engines %v, want %v", got, want)
	}
	s.Close()
	if closes != starts {
		t.Errorf("%d engines started, %d closed", starts, closes)
	}
	var statuses []string
	for _, r := range s.Results() {
		statuses = append(statuses, r.Name+" "+r.Status.String())
	}
	if got, want := strings.Join(statuses, ", "), "start pass, a pass, b FAIL, c skip"; got != want {
		t.Errorf("results %s, want %s", got, want)
	}
}

// An engine that does not start fails the first check, and every other check is skipped.
func TestSessionEngineThatDoesNotStart(t *testing.T) {
	s := NewSession(t.Context(), Options{}, func(context.Context) (engineStub, error) {
		return engineStub{}, errors.New("no such program")
	})
	if _, err := s.Begin("start"); err == nil {
		t.Fatal("started")
	}
	want := []Result{{Name: "start", Status: Failed, Detail: "no such program"},
		{Name: "every other check", Status: Skipped, Detail: "skipped: the engine did not start"}}
	if got := s.Results(); !reflect.DeepEqual(got, want) {
		t.Errorf("results %+v, want %+v", got, want)
	}
}
