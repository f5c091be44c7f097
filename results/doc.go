// Package results holds what a tournament leaves behind: one Record per finished game, appended
// to a JSON Lines file and synced to disk before the game is reported, so that a killed arbiter
// loses nothing; PGN export in the format MzingaViewer saves and loads; and reading records back,
// from one file or from the shards of many workers, for statistics and for resuming a run.
//
// A Log is every JSON Lines file a run appends to: a tournament's records, and a tune's (package
// tune's own lines, through OpenLines and AppendJSON). Each is locked against a second writer
// (flock on Unix, LockFileEx on Windows), each line synced before it counts, and a last line
// cut short by a killed process removed when the file is opened again. TakeOut is the one
// rewrite of a records file: some of its records (a worker's, taken out of a pool's run) moved
// to a file aside, the file replaced whole under the same lock.
//
// A Sink is what every run writes its finished games through (a tournament, arbiter serve): the
// records file, a Log, and the PGN file beside it, locked as the Log is.
//
// What results holds is worded for people by package results/render: the result block, the
// tables, the verdicts.
package results
