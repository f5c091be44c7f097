// Package configs reads tournament configurations: TOML files, the engine specifications of
// the command line (cmd=... name=... tc=..., as fastchess and cutechess-cli users write them),
// and the example configurations embedded in the arbiter, among them the default demo match
// that "arbiter" runs with no arguments.
package configs
