package artifact

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"hivearbiter/arbiter/driver"
)

// TestUploadAndWorkerEngines: a run's engines go up as artifacts (a program file, a Python
// directory, and a player over TCP that has none) and come back as a worker's engines: fetched
// when the host can run them, the worker's own build when it is the same, refused otherwise.
func TestUploadAndWorkerEngines(t *testing.T) {
	s, _ := newStore(t, Limits{})
	exe := tinyELF(t, t.TempDir())
	bot := t.TempDir()
	writeFile(t, bot, "bot.py", "print('randombot 1.0')\n", 0o644)
	submitted := []driver.EngineConfig{
		{Name: "native", Command: []string{exe, "-profile", "strong"}},
		{Name: "bot", Command: []string{"python3", "bot.py"}, Dir: bot, Protocol: "gamestring"},
		{Name: "remote", Addr: "127.0.0.1:9"},
	}
	manifests, run, err := s.UploadEngines(t.Context(), submitted)
	if err != nil {
		t.Fatal(err)
	}
	if manifests[0].Kind != File || manifests[1].Kind != Dir || manifests[2].SHA256 != "" {
		t.Fatalf("manifests %+v", manifests)
	}
	if !slices.Equal(run[0].Command, []string{"./" + filepath.Base(exe), "-profile", "strong"}) || run[1].Dir != "" || run[2].Addr == "" {
		t.Fatalf("the run's engines %+v", run)
	}

	linux := ThisHost()
	linux.Runtimes = []string{"python3"}
	cache := t.TempDir()
	engines, err := s.WorkerEngines(t.Context(), linux, cache, run, manifests, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(engines) != 2 || engines[0].Dir != filepath.Join(cache, manifests[0].SHA256) || engines[1].Dir != filepath.Join(cache, manifests[1].SHA256) {
		t.Fatalf("the worker's engines %+v", engines)
	}
	if !slices.Equal(engines[0].Command[1:], []string{"-profile", "strong"}) || engines[1].Protocol != "gamestring" {
		t.Fatalf("the run's settings are lost: %+v", engines)
	}

	own := driver.EngineConfig{Name: "native", Command: []string{exe, "-profile", "strong"}}
	engines, err = s.WorkerEngines(t.Context(), linux, t.TempDir(), run, manifests, []driver.EngineConfig{own})
	if err != nil || engines[0].Command[0] != exe {
		t.Fatalf("a worker's own build of the same program: %+v, %v", engines, err)
	}

	other := writeFile(t, t.TempDir(), "native", "#!/bin/sh\n", 0o755)
	_, err = s.WorkerEngines(t.Context(), linux, t.TempDir(), run, manifests, []driver.EngineConfig{{Name: "native", Command: []string{other}}})
	if _, ok := errors.AsType[*OverrideMismatchError](err); !ok {
		t.Fatalf("a worker's own build of another program: %v", err)
	}
	noPython := t.TempDir()
	_, err = s.WorkerEngines(t.Context(), Host{Platform: linux.Platform}, noPython, run, manifests, nil)
	if _, ok := errors.AsType[*NotRunnableError](err); !ok {
		t.Fatalf("a worker without python3: %v", err)
	}
	assertEmpty(t, noPython) // it fetched nothing, not even the engine it could run
}

// tinyELF writes the header of an ELF program for this machine's processor, all that packing
// reads of a native program, without the megabytes of a real one.
func tinyELF(t *testing.T, dir string) string {
	t.Helper()
	var machine elf.Machine
	for m, arch := range elfArch {
		if arch == runtime.GOARCH {
			machine = m
		}
	}
	if machine == 0 || runtime.GOOS != "linux" {
		t.Skipf("no ELF machine for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	h := elf.Header64{Type: uint16(elf.ET_EXEC), Machine: uint16(machine), Version: uint32(elf.EV_CURRENT), Ehsize: 64}
	copy(h.Ident[:], elf.ELFMAG)
	h.Ident[elf.EI_CLASS], h.Ident[elf.EI_DATA], h.Ident[elf.EI_VERSION] = byte(elf.ELFCLASS64), byte(elf.ELFDATA2LSB), byte(elf.EV_CURRENT)
	var buf bytes.Buffer
	if err := binary.Write(&buf, binary.LittleEndian, h); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, "engine", buf.String(), 0o755)
}
