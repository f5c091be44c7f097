package arbiter_test

import (
	"slices"
	"strings"
	"testing"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
)

func TestWorkerCPUs(t *testing.T) {
	threads := func(n string) driver.EngineConfig {
		e := engine("t", "random")
		e.Options = []driver.EngineOption{{Name: "Threads", Value: n}}
		return e
	}
	tests := []struct {
		name    string
		engines []driver.EngineConfig
		worker  int
		allowed []int
		want    []int
	}{
		{"one thread, first worker", nil, 0, []int{0, 1, 2, 3}, []int{0}},
		{"one thread, third worker", nil, 2, []int{0, 1, 2, 3}, []int{2}},
		{"more workers than cores wrap", nil, 5, []int{0, 1, 2, 3}, []int{1}},
		{"the allowed CPUs, not 0..N", nil, 1, []int{4, 6}, []int{6}},
		{"two threads", []driver.EngineConfig{threads("2")}, 1, []int{0, 1, 2, 3}, []int{2, 3}},
		{"more threads than cores", []driver.EngineConfig{threads("8")}, 0, []int{0, 1}, []int{0, 1}},
		{"not supported", nil, 0, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := arbiter.Config{Engines: append([]driver.EngineConfig{engine("a", "random")}, tc.engines...)}
			if got := cfg.WorkerCPUs(tc.worker, tc.allowed); !slices.Equal(got, tc.want) {
				t.Errorf("WorkerCPUs(%d, %v) = %v, want %v", tc.worker, tc.allowed, got, tc.want)
			}
		})
	}
}

// One warning when the workers' engine threads need more cores than there are.
func TestSetupWarnsOfThreadsBeyondTheCores(t *testing.T) {
	a, b := engine("a", "random"), engine("b", "random")
	a.Options = []driver.EngineOption{{Name: "threads", Value: "2"}}
	cfg := baseConfig(a, b)
	cfg.Concurrency = 2
	warnings := strings.Join(fakeTournament(t, cfg).SetupWarnings(3), "\n")
	if strings.Count(warnings, "threads per engine") != 1 || !strings.Contains(warnings, "-concurrency 2 x 2 threads per engine is more than the 3 cores") {
		t.Errorf("warnings:\n%s\nwant one about 2 x 2 threads on 3 cores", warnings)
	}
	if warnings := strings.Join(fakeTournament(t, cfg).SetupWarnings(4), "\n"); strings.Contains(warnings, "threads per engine") {
		t.Errorf("warnings on 4 cores:\n%s\nwant none about threads", warnings)
	}
}
