"use strict";
// answer runs a module's process_message on one message, turning an exception into the
// reply the Hive API gives for it: {"success": false, "error": ...}.
module.exports = function answer(module, message) {
  try {
    return module.process_message(message);
  } catch (err) {
    return { success: false, error: String((err && err.stack) || err) };
  }
};
