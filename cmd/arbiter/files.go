package main

import (
	"errors"

	"hivearbiter/arbiter/driver"
	"hivearbiter/internal/cli"
	"hivearbiter/results"
)

// checkFiles checks the files a command reads and writes before it reads or writes any (see
// results.CheckFiles), and returns every problem found as a usage error.
func checkFiles(files []results.NamedFile, transcripts string) error {
	if problems := results.CheckFiles(files, transcripts); len(problems) > 0 {
		return cli.Usage(errors.Join(problems...))
	}
	return nil
}

// locateEngines checks, before anything is played or written, that every engine's program can
// be run (driver.LocateAll), and returns every problem found as a usage error.
func locateEngines(engines []driver.EngineConfig) error {
	if err := driver.LocateAll(engines); err != nil {
		return cli.Usage(err)
	}
	return nil
}
