// Package hivebotcmd is the command line of the bundled engine, hivebot (package
// enginekit/hivebot): its flags, its -h text and "hivebot bench". Main is the whole program:
// cmd/hivebot wraps it, and the arbiter binary runs it as a hidden subcommand so that matches
// between profiles run hivebot as a real engine process.
package hivebotcmd
