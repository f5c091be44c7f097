"use strict";
// broken: greets, then throws on every Choose Turn, as a module with a bug does.
exports.process_message = function (message) {
  if (message.request_type === "Greetings") {
    return { response_type: "Greetings", response_id: message.request_id, name: "broken", version: "0.0.1", active: true };
  }
  return message.game_state.no_such_field.length;
};
