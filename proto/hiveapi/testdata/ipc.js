"use strict";
// usage: node ipc.js MODULE.js
// Runs a Hive API module on the IPC channel a parent opened for it (Node's fork, or Hive
// Arbiter's transport=ipc): one message in, one reply out.
const path = require("path");
const answer = require("./answer");
const module_ = require(path.resolve(process.argv[2]));

if (!process.send) {
  console.error("ipc.js: no IPC channel (NODE_CHANNEL_FD is not set): start it with transport=ipc");
  process.exit(2);
}
process.on("message", (message) => process.send(answer(module_, message)));
process.on("disconnect", () => process.exit(0));
