"use strict";
// usage: node stdio.js MODULE.js
// Runs a Hive API module on standard input and output: one JSON object per line each way.
const path = require("path");
const readline = require("readline");
const answer = require("./answer");
const module_ = require(path.resolve(process.argv[2]));

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  let reply;
  try {
    reply = answer(module_, JSON.parse(line));
  } catch (err) {
    reply = { success: false, error: "unreadable request: " + err.message };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
lines.on("close", () => process.exit(0));
