package artifact

import (
	"bytes"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Kind is how an artifact's bytes are laid out.
type Kind string

const (
	// File is a single program, stored as it is: its SHA-256 is the program's own, the one a
	// worker's -engine is checked against.
	File Kind = "file"
	// Dir is a directory, stored as a deterministic tar.gz.
	Dir Kind = "dir"
)

// AnyPlatform is the platform of an engine that a runtime runs (a script): any machine with
// the runtime.
const AnyPlatform = "any"

// Manifest describes an artifact: the bytes (named by their SHA-256) and how to run them.
// The same bytes may be run with several commands (two engines of one directory); the run
// carries its engines' manifests, and the store keeps the first one uploaded beside the bytes.
type Manifest struct {
	SHA256 string `json:"sha256"` // hex, lower case, of the packed bytes: the object's name
	Kind   Kind   `json:"kind"`
	Size   int64  `json:"size"` // of the packed bytes
	// Name is a file artifact's file name in the root, the one its command runs.
	Name string `json:"name,omitempty"`
	// Platform is "os/arch" (GOOS/GOARCH) for a native program, or "any".
	Platform string `json:"platform"`
	// Runtime is the program on the PATH that runs the engine (python3, node), or empty for a
	// native program.
	Runtime string `json:"runtime,omitempty"`
	// Command is the engine's command inside the artifact: a program on the PATH (the runtime)
	// or a path relative to the artifact's root ("./engine"), then arguments, paths among them
	// relative to the root, which is the engine's working directory.
	Command []string `json:"command"`
}

// Check says whether a manifest (read from a run or from the store) is well formed: a worker
// must not take a path or a hash from one unchecked.
func (m Manifest) Check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("artifact: manifest %.12s: %s", m.SHA256, fmt.Sprintf(format, args...))
	}
	if b, err := hex.DecodeString(m.SHA256); err != nil || len(b) != 32 || strings.ToLower(m.SHA256) != m.SHA256 {
		return bad("sha256 %q: want 64 lower-case hex digits", m.SHA256)
	}
	if m.Kind != File && m.Kind != Dir {
		return bad("kind %q: want file or dir", m.Kind)
	}
	if m.Size < 0 {
		return bad("size %d", m.Size)
	}
	if len(m.Command) == 0 || m.Command[0] == "" {
		return bad("no command")
	}
	if prog := m.Command[0]; isPath(prog) && !filepath.IsLocal(filepath.FromSlash(prog)) {
		return bad("program %q is outside the artifact", prog)
	}
	if m.Kind == File && (m.Name == "" || m.Name != filepath.Base(m.Name) || !filepath.IsLocal(m.Name)) {
		return bad("file name %q: want a plain file name", m.Name)
	}
	if m.Platform != AnyPlatform && strings.Count(m.Platform, "/") != 1 {
		return bad("platform %q: want OS/ARCH or any", m.Platform)
	}
	return nil
}

// isPath says whether a program is named by a path (run from the artifact) rather than by a
// name looked up on the PATH, as internal/proc.Locate tells them apart.
func isPath(program string) bool {
	return strings.ContainsRune(program, '/') || strings.ContainsRune(program, filepath.Separator)
}

// runtimeOf is the runtime a command needs: its program when that is a name on the PATH.
func runtimeOf(command []string) string {
	if len(command) == 0 || isPath(command[0]) {
		return ""
	}
	return strings.TrimSuffix(command[0], ".exe")
}

// errUnknownFormat is a program whose platform its first bytes do not tell.
var errUnknownFormat = errors.New("neither an ELF, Mach-O or PE program nor a script with #!")

// platformOf reads a program's platform from its header: "os/arch" for an ELF, Mach-O or PE
// program, "any" with the interpreter for a script that starts with #!.
func platformOf(file string) (platform, interpreter string, err error) {
	f, err := os.Open(file)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if bytes.HasPrefix(head, []byte("#!")) {
		line, _, _ := bytes.Cut(head[2:], []byte("\n"))
		return AnyPlatform, interpreterOf(string(line)), nil
	}
	switch {
	case bytes.HasPrefix(head, []byte(elf.ELFMAG)):
		ef, err := elf.NewFile(f)
		if err != nil {
			return "", "", err
		}
		return known(elfOS(ef.OSABI), elfArch[ef.Machine])
	case bytes.HasPrefix(head, []byte("MZ")):
		pf, err := pe.NewFile(f)
		if err != nil {
			return "", "", err
		}
		return known("windows", peArch[pf.Machine])
	}
	if mf, err := macho.NewFile(f); err == nil {
		return known("darwin", machoArch[mf.Cpu])
	}
	return "", "", errUnknownFormat
}

// known is a native program's platform, or an error for an architecture not in the tables.
func known(goos, goarch string) (platform, interpreter string, err error) {
	if goarch == "" {
		return "", "", fmt.Errorf("a %s program for an architecture Go does not name here", goos)
	}
	return goos + "/" + goarch, "", nil
}

// interpreterOf is the runtime of a #! line: the program env runs, or the interpreter's name.
func interpreterOf(line string) string {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return ""
	}
	if path.Base(fields[0]) == "env" {
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") {
				return f
			}
		}
		return ""
	}
	return path.Base(fields[0])
}

func elfOS(abi elf.OSABI) string {
	switch abi {
	case elf.ELFOSABI_FREEBSD:
		return "freebsd"
	case elf.ELFOSABI_NETBSD:
		return "netbsd"
	case elf.ELFOSABI_OPENBSD:
		return "openbsd"
	}
	return "linux" // most toolchains leave the ABI at System V
}

var elfArch = map[elf.Machine]string{
	elf.EM_X86_64: "amd64", elf.EM_AARCH64: "arm64", elf.EM_386: "386", elf.EM_ARM: "arm",
	elf.EM_RISCV: "riscv64", elf.EM_PPC64: "ppc64le", elf.EM_S390: "s390x", elf.EM_LOONGARCH: "loong64",
}

var peArch = map[uint16]string{
	pe.IMAGE_FILE_MACHINE_AMD64: "amd64", pe.IMAGE_FILE_MACHINE_ARM64: "arm64", pe.IMAGE_FILE_MACHINE_I386: "386",
}

var machoArch = map[macho.Cpu]string{macho.CpuAmd64: "amd64", macho.CpuArm64: "arm64"}
