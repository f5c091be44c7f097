// Package results holds what a tournament leaves behind: one Record per finished game, appended
// to a JSON Lines file and synced to disk before the game is reported, so that a killed arbiter
// loses nothing; PGN export in the format MzingaViewer saves and loads; and reading records back,
// from one file or from the shards of many workers, for statistics and for resuming a run.
package results
