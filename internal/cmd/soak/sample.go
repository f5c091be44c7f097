//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"hivearbiter/internal/debugvars"
)

// Sample is one look at the arbiter process: its resident memory, open file descriptors,
// goroutines and engine processes, and how many games the records file held.
type Sample struct {
	At         time.Duration // since the soak began
	Up         time.Duration // since this arbiter process began
	Life       int           // which arbiter process: 0 first, then one more per restart
	RSSKiB     int64
	FDs        int
	Goroutines int  // -1 when the debug window did not answer
	Engines    int  // its child processes that run (its engines, or one a coordinator identifies)
	Settled    bool // the engines did not change while the sample was taken
	Games      int  // records in the file (a pool's: in every run's file)
	LifeGames  int  // records this process added
	// A pool server's load, as the soak knew it (zero for an arbiter): its active runs, the
	// workers up, and the runs it has finished since it started.
	Runs, Workers, LifeRuns int
}

// load is what a pool server is doing, as the soak knows it: its active runs, the worker
// processes up, and the runs finished in all.
type load struct{ runs, workers, finished int }

// sampler collects samples of the arbiter processes (or pool servers) one after another.
type sampler struct {
	begin time.Time
	games func() int  // the records written so far; called with mu held
	load  func() load // a pool server's; nil for an arbiter

	mu      sync.Mutex
	samples []Sample
}

// loadNow is the server's load, the zero load for an arbiter.
func (s *sampler) loadNow() load {
	if s.load == nil {
		return load{}
	}
	return s.load()
}

// watch samples p every interval until it ends; debugAddr is its /debug/vars window.
func (s *sampler) watch(p *process, life int, debugAddr string, interval time.Duration) {
	client := &http.Client{Timeout: interval}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	s.mu.Lock()
	base := s.games()
	s.mu.Unlock()
	baseRuns := s.loadNow().finished
	for {
		select {
		case <-p.done:
			return
		case <-tick.C:
		}
		// The engines (a server's load) are counted before and after the rest: a sample taken
		// while an engine started or ended is not like the others at either count.
		before, loadBefore := children(p.pid()), s.loadNow()
		rss, fds, ok := procStats(p.pid())
		if !ok {
			continue // it ended under us
		}
		smp := Sample{At: time.Since(s.begin), Up: time.Since(p.started), Life: life, RSSKiB: rss, FDs: fds,
			Goroutines: goroutines(client, debugAddr)}
		after, loadAfter := children(p.pid()), s.loadNow()
		smp.Engines, smp.Settled = max(before, after), before == after && loadBefore == loadAfter
		smp.Runs, smp.Workers, smp.LifeRuns = loadAfter.runs, loadAfter.workers, loadAfter.finished-baseRuns
		s.mu.Lock()
		smp.Games = s.games()
		// A resumed run may drop a cut-short last line, which the count then loses.
		base = min(base, smp.Games)
		smp.LifeGames = smp.Games - base
		s.samples = append(s.samples, smp)
		s.mu.Unlock()
	}
}

func (s *sampler) all() []Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.samples)
}

// procStats reads a process's resident memory (KiB) and open descriptors from /proc.
func procStats(pid int) (rssKiB int64, fds int, ok bool) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		if v, found := strings.CutPrefix(sc.Text(), "VmRSS:"); found {
			rssKiB, _ = strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	entries, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return 0, 0, false
	}
	return rssKiB, len(entries), rssKiB > 0
}

// goroutines asks the arbiter's debug window (package debugvars) for its goroutine count.
func goroutines(client *http.Client, addr string) int {
	ctx, cancel := context.WithTimeout(context.Background(), client.Timeout)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/debug/vars", nil)
	resp, err := client.Do(req)
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var vars debugvars.Snapshot
	if json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&vars) != nil {
		return -1
	}
	return vars.Goroutines
}

// fileCounter counts the lines of one growing file, for the samples and the kill schedule.
func fileCounter(path string) func() int {
	var c lineCounter
	return func() int { return c.count(path) }
}

// globCounter counts the lines of every file that matches pattern (a pool's records files,
// one a run, new ones as runs are submitted).
func globCounter(pattern string) func() int {
	counters := make(map[string]*lineCounter)
	return func() int {
		paths, _ := filepath.Glob(pattern)
		n := 0
		for _, p := range paths {
			c := counters[p]
			if c == nil {
				c = &lineCounter{}
				counters[p] = c
			}
			n += c.count(p)
		}
		return n
	}
}

// lineCounter counts the lines of a growing file, reading only what is new; a file that shrank
// (a cut last line removed on resume) is counted again. It is for the samples, not the checks.
type lineCounter struct {
	offset int64
	lines  int
}

func (c *lineCounter) count(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return c.lines
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() < c.offset {
		c.offset, c.lines = 0, 0
	}
	if _, err := f.Seek(c.offset, io.SeekStart); err != nil {
		return c.lines
	}
	buf := make([]byte, 64<<10)
	for {
		n, err := f.Read(buf)
		c.lines += bytes.Count(buf[:n], []byte{'\n'})
		c.offset += int64(n)
		if err != nil || n == 0 {
			return c.lines
		}
	}
}
