"use strict";
// usage: node tcp.js MODULE.js PORT
// Runs a Hive API module as a TCP server: each message is framed "<length>#<json>", the
// length counted in JavaScript characters.
const net = require("net");
const path = require("path");
const answer = require("./answer");
const module_ = require(path.resolve(process.argv[2]));
const port = Number(process.argv[3]);

function frame(reply) {
  const text = JSON.stringify(reply);
  return text.length + "#" + text;
}

const server = net.createServer((socket) => {
  socket.setEncoding("utf8");
  let buffered = "";
  socket.on("data", (chunk) => {
    buffered += chunk;
    for (;;) {
      const hash = buffered.indexOf("#");
      if (hash < 0) return;
      const length = Number(buffered.slice(0, hash));
      if (buffered.length < hash + 1 + length) return;
      const text = buffered.slice(hash + 1, hash + 1 + length);
      buffered = buffered.slice(hash + 1 + length);
      let reply;
      try {
        reply = answer(module_, JSON.parse(text));
      } catch (err) {
        reply = { success: false, error: "unreadable request: " + err.message };
      }
      socket.write(frame(reply));
    }
  });
  socket.on("error", () => {});
});
server.listen(port, "127.0.0.1", () => console.log("listening on port " + port));
