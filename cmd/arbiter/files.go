package main

import (
	"errors"

	"hivearbiter/arbiter"
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
// be run (through its protocol), and returns every problem found as a usage error.
func locateEngines(engines []driver.EngineConfig) error {
	var problems []error
	for _, e := range engines {
		if err := driver.Locate(e); err != nil {
			problems = append(problems, errors.New(arbiter.Message(err)))
		}
	}
	if len(problems) > 0 {
		return cli.Usage(errors.Join(problems...))
	}
	return nil
}
