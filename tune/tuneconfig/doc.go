// Package tuneconfig builds a tune (tune.Config) from the settings arbiter tune's command line
// gives (Flags, which the command binds to its flags), laid over a configuration file's, read
// by package configs: package tune plays a tune and reads no settings itself, so that what
// links it (the report's pages) links no configuration reader.
package tuneconfig
