// Package hiveapi enters AI modules that speak the Hive API v0.1.0 (of the Trylobot Hive
// project) in the arbiter's games, and registers itself as protocol "hiveapi":
//
//	import _ "hivearbiter/proto/hiveapi"
//
// A module is sent "Greetings" once (its name, version and author become the player's ID;
// a module that says active:false is refused) and "Choose Turn" for every move, with the whole
// game state and every legal turn enumerated in possible_turns; it answers with one of them.
//
// Game converts both ways, exactly, between the referee's positions and moves and the API's
// game state and turns: points in doubled-row coordinates relative to White's first piece,
// stacks bottom first, hands, history, and the pillbug's throws as Special Ability turns of
// the pillbug (or mosquito) that throws.
//
// A module is reached in one of three ways (engine settings in brackets):
//
//   - standard input and output, one JSON object per line each way (cmd=PROG transport=stdio);
//   - Node's IPC channel, as Node's fork gives it: a Unix socket pair whose end the child finds
//     through NODE_CHANNEL_FD, one JSON object per line (cmd=node arg=ai/ai-local-fork.js
//     arg=MODULE transport=ipc runs a Trylobot module unchanged);
//   - TCP, the module being the server, each message framed "<length>#<json>"
//     (addr=HOST:PORT; with cmd= as well the arbiter starts the server, say cmd=node
//     arg=ai/ai-tcp-server.js arg=MODULE arg=PORT, and connects once it listens).
//
// testdata holds a small module of our own (forager.js) and a wrapper for each transport.
//
// The API has no think-time limit: each request carries a response_deadline from the
// arbiter's clock, and the arbiter enforces it. A module that answers late, garbles its
// answer, or chooses a turn it was not offered loses the game. The API echoes no game state,
// so a module's game is not cross-checked (PlayerInfo.ReportsState is false): the arbiter's
// referee holds the only game.
//
// Protocol is compliance.PlayChecked: "arbiter check -engine ... proto=hiveapi" checks a module
// before a run, by play, with the rows it declares (PlayRows): its Greetings, a first turn in time, games against the
// referee in which every turn must be one it was offered, and its exit.
package hiveapi
