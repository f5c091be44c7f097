package pool

import (
	"strings"
	"testing"
	"time"

	"hivearbiter/distributed"
	"hivearbiter/pool/artifact"
)

// TestAssign: a worker goes to the active run of the highest priority its platform can play
// and it is fit for, and among those to the one with the fewest slots for its share.
func TestAssign(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	type runSpec struct {
		id        string
		state     string
		priority  int
		share     float64
		platforms []string
		slots     int // slots of other workers assigned to it
		expired   bool
	}
	linux := []string{"linux/amd64"}
	tests := []struct {
		name string
		runs []runSpec
		req  AssignRequest
		want string
	}{
		{"the only run", []runSpec{{id: "a", state: StateActive, share: 1}}, AssignRequest{Platform: "linux/amd64"}, "a"},
		{"no active run", []runSpec{{id: "a", state: StatePaused, share: 1}, {id: "b", state: StateFinished, share: 1}}, AssignRequest{}, ""},
		{"the higher priority, however loaded", []runSpec{{id: "a", state: StateActive, share: 1}, {id: "b", state: StateActive, priority: 1, share: 1, slots: 8}}, AssignRequest{}, "b"},
		{"the fewest slots", []runSpec{{id: "a", state: StateActive, share: 1, slots: 2}, {id: "b", state: StateActive, share: 1, slots: 1}}, AssignRequest{}, "b"},
		{"the fewest slots for its share", []runSpec{{id: "a", state: StateActive, share: 3, slots: 2}, {id: "b", state: StateActive, share: 1, slots: 1}}, AssignRequest{}, "a"},
		{"expired assignments do not count", []runSpec{{id: "a", state: StateActive, share: 1, slots: 5, expired: true}, {id: "b", state: StateActive, share: 1, slots: 1}}, AssignRequest{}, "a"},
		{"not another platform's run", []runSpec{{id: "a", state: StateActive, share: 1, platforms: linux}}, AssignRequest{Platform: "plan9/mips"}, ""},
		{"not a run it is unfit for", []runSpec{{id: "a", state: StateActive, share: 1}, {id: "b", state: StateActive, share: 1, slots: 9}}, AssignRequest{Unfit: map[string]string{"a": "engines differ"}}, "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Server{cfg: Config{Batch: time.Minute}, runs: map[string]*run{}, workers: map[string]*WorkerState{}}
			for i, rs := range tt.runs {
				r := &run{state: RunState{ID: rs.id, State: rs.state, Priority: rs.priority, Share: rs.share, Platforms: rs.platforms,
					Submitted: now.Add(time.Duration(i) * time.Second)}, assigned: map[string]assignment{}}
				if rs.state == StateActive {
					r.cancel = func() {}
				}
				until := now.Add(time.Minute)
				if rs.expired {
					until = now.Add(-time.Second)
				}
				if rs.slots > 0 {
					r.assigned["other"] = assignment{slots: rs.slots, until: until}
				}
				s.runs[rs.id] = r
			}
			tt.req.Worker, tt.req.Slots = "me", 1
			got := s.Assign(tt.req, now)
			if got.Run != tt.want {
				t.Errorf("assigned %q, want %q", got.Run, tt.want)
			}
			if got.Run == "" && got.Wait <= 0 {
				t.Error("no run and no wait")
			}
		})
	}
}

// TestAssignQuarantines: a worker whose results a run's chi-square test flags gets no run.
func TestAssignQuarantines(t *testing.T) {
	t.Parallel()
	now := time.Now()
	s := &Server{cfg: Config{Batch: time.Minute}, runs: map[string]*run{}, workers: map[string]*WorkerState{}}
	s.runs["a"] = &run{state: RunState{ID: "a", State: StateActive, Share: 1}, assigned: map[string]assignment{}, cancel: func() {},
		final: &distributed.Status{Workers: []distributed.WorkerStats{{Name: "cheat", Flagged: true}, {Name: "honest"}}}}
	if a := s.Assign(AssignRequest{Worker: "cheat", Slots: 1}, now); a.Run != "" {
		t.Errorf("the flagged worker was given run %s", a.Run)
	}
	if a := s.Assign(AssignRequest{Worker: "honest", Slots: 1}, now); a.Run != "a" {
		t.Errorf("the honest worker was given %q, want a", a.Run)
	}
	if ws := s.Workers(); len(ws) != 2 || ws[0].Name != "cheat" || ws[0].StateText(now) != "flagged" {
		t.Errorf("workers %+v: want cheat flagged", ws)
	}
}

// TestAssignArtifacts: a run whose artifacts a worker cannot run (another platform, a runtime
// it lacks) is not given to it.
func TestAssignArtifacts(t *testing.T) {
	t.Parallel()
	now := time.Now()
	py := artifact.Manifest{SHA256: strings.Repeat("a", 64), Kind: "dir", Platform: artifact.AnyPlatform, Runtime: "python3", Command: []string{"python3", "bot.py"}}
	native := artifact.Manifest{SHA256: strings.Repeat("b", 64), Kind: "file", Platform: "linux/amd64", Name: "engine", Command: []string{"./engine"}}
	tests := []struct {
		name string
		m    artifact.Manifest
		req  AssignRequest
		want string
	}{
		{"python3 on a worker with python3", py, AssignRequest{Platform: "plan9/mips", Runtimes: []string{"node", "python3"}}, "a"},
		{"python3 on a worker without", py, AssignRequest{Platform: "linux/amd64", Runtimes: []string{"node"}}, ""},
		{"native on its platform", native, AssignRequest{Platform: "linux/amd64"}, "a"},
		{"native on another platform", native, AssignRequest{Platform: "linux/arm64"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Server{cfg: Config{Batch: time.Minute}, runs: map[string]*run{}, workers: map[string]*WorkerState{}}
			s.runs["a"] = &run{state: RunState{ID: "a", State: StateActive, Share: 1}, assigned: map[string]assignment{}, cancel: func() {},
				sub: &Submission{Manifests: []artifact.Manifest{{}, tt.m}}}
			tt.req.Worker, tt.req.Slots = "me", 1
			a := s.Assign(tt.req, now)
			if a.Run != tt.want {
				t.Errorf("assigned %q, want %q", a.Run, tt.want)
			}
			if a.Run != "" && (len(a.Manifests) != 2 || a.Manifests[1].SHA256 != tt.m.SHA256) {
				t.Errorf("the assignment carries manifests %+v", a.Manifests)
			}
		})
	}
}
