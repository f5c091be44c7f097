package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

// platforms are the release's platforms, os/arch as GOOS and GOARCH name them.
var platforms = []string{"linux/amd64", "linux/arm64", "windows/amd64", "windows/arm64", "darwin/amd64", "darwin/arm64"}

// commands are the binaries every archive holds, as packages of the module.
var commands = []string{"./cmd/arbiter", "./cmd/hivebot"}

// run builds the archives that args ask for and writes SHA256SUMS beside them.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "", "the version to stamp and name the archives by, such as 0.2.0 (required)")
	out := fs.String("o", "dist", "the folder to write the archives and SHA256SUMS to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *version == "" {
		return errors.New("give the release's version: -version 0.2.0")
	}
	targets := fs.Args()
	if len(targets) == 0 {
		targets = platforms
	}
	for _, t := range targets {
		if !slices.Contains(platforms, t) {
			return fmt.Errorf("unknown platform %q: want one of %s", t, strings.Join(platforms, ", "))
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	commit := checkoutCommit(ctx)
	var archives []string
	for _, t := range targets {
		goos, goarch, _ := strings.Cut(t, "/")
		name, err := buildArchive(ctx, *out, *version, commit, goos, goarch)
		if err != nil {
			return fmt.Errorf("%s: %w", t, err)
		}
		fmt.Fprintln(stdout, filepath.Join(*out, name))
		archives = append(archives, name)
	}
	return writeSums(*out, archives)
}

// checkoutCommit is the commit the checkout is at, with "+dirty" when it has changes, or ""
// outside a git checkout.
func checkoutCommit(ctx context.Context) string {
	rev, err := exec.CommandContext(ctx, "git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	commit := strings.TrimSpace(string(rev))
	if status, err := exec.CommandContext(ctx, "git", "status", "--porcelain").Output(); err != nil || len(status) > 0 {
		commit += "+dirty"
	}
	return commit
}

// buildArchive builds the binaries for one platform into a staging folder with the README
// and the licences, and packs it as out/NAME, whose name it returns.
func buildArchive(ctx context.Context, out, version, commit, goos, goarch string) (string, error) {
	base := fmt.Sprintf("arbiter-%s-%s-%s", version, goos, goarch)
	stage, err := os.MkdirTemp("", "release-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(stage)
	dir := filepath.Join(stage, base)
	env := append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	ldflags := "-s -w -X hivearbiter/arbiter.Version=" + version
	if commit != "" {
		ldflags += " -X hivearbiter/internal/cli.stampedCommit=" + commit
	}
	build := append([]string{"build", "-trimpath", "-ldflags", ldflags, "-o", dir + string(filepath.Separator)}, commands...)
	if err := goCommand(ctx, env, build...); err != nil {
		return "", err
	}
	if err := copyTopFiles(dir, "."); err != nil {
		return "", err
	}
	if err := copyLicences(ctx, env, filepath.Join(dir, "licenses")); err != nil {
		return "", err
	}
	name := base + ".tar.gz"
	pack := writeTarGz
	if goos == "windows" {
		name, pack = base+".zip", writeZip
	}
	return name, pack(filepath.Join(out, name), stage, base)
}

// goCommand runs the go command with env, its output kept for the error.
func goCommand(ctx context.Context, env []string, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Env = env
	if output, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %w\n%s", args[0], err, output)
	}
	return nil
}

// topFiles are the files of the repository's root every archive carries beside the
// binaries: the README and the arbiter's own licence.
var topFiles = []string{"README.md", "LICENSE"}

// copyTopFiles copies the topFiles from the folder root into dir. A missing one is an error:
// an archive without its licence could not be given to anyone.
func copyTopFiles(dir, root string) error {
	for _, name := range topFiles {
		if err := copyFile(filepath.Join(dir, name), filepath.Join(root, name)); err != nil {
			return fmt.Errorf("the archive's %s: %w", name, err)
		}
	}
	return nil
}

// copyFile copies the file at from to the new file to.
func copyFile(to, from string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// errNoLicence is a module compiled into the binaries that has no licence file to ship.
var errNoLicence = errors.New("no licence file")
