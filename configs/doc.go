// Package configs reads tournament configurations: TOML files, the command line's settings of
// a run (Flags, laid over a file's), the engine specifications of the command line (cmd=...
// name=... tc=..., as fastchess and cutechess-cli users write them), and the example
// configurations embedded in the arbiter, among them the default demo match that "arbiter"
// runs with no arguments. Whichever way a run's settings come, Run.Config applies one set of
// defaults and checks, so that one configuration is one run, with one run id.
package configs
