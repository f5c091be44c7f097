// Package driver is what a protocol implements to play in the arbiter's games, and nothing
// else: the shape of database/sql/driver. A protocol package (proto/uhp, proto/ugi, ...)
// implements Player (one engine in one conversation: its greeting, a new game, a played move,
// a search under a SearchLimit, the close) and Protocol (Validate an engine's settings, Start a
// player), and registers the Protocol under its name with Register, from init; the arbiter and
// every front end start players with Start, which finds the protocol of an EngineConfig
// (proto=NAME, "uhp" when empty).
//
// Optional interfaces say what more a player or a protocol can do: a Locator finds an engine's
// program before a run, a SettingLister lists its settings (so that one check refuses unknown
// ones with the closest name), a PlayStarter sends a move to both players at once, an
// Interrupter stops a search, a Finisher hears the result, a SearchReporter gives the search's
// depth and score, a Warner its warnings, a TimingAdvisor what a time control does to it, a
// Transcribed marks its transcript per game, a Bencher runs its bench.
//
// The vocabulary they share is here too: an engine's configuration (EngineConfig, its Options
// and protocol Settings), time controls and the clock that spends them (TimeControl, Clock,
// ClockState), a player's failure with the reason it loses the game (PlayerError,
// ClassifyError) and a wrong setting (ConfigError). The arbiter, which plays the games, and
// package compliance, which checks an engine against its protocol, are built on it; a protocol
// imports this package and compliance, never the arbiter's tournaments.
package driver
