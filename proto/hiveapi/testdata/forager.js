"use strict";
// forager: a small Hive API v0.1.0 AI module written for Hive Arbiter's tests.
// It surrounds the opponent's Queen Bee: every offered turn is scored by how it changes the
// number of pieces next to that queen, placements are preferred early, and ties are broken
// by a pseudo-random number seeded from the game and the turn, so its games repeat.

const NEIGHBOURS = [[-2, 0], [-1, 1], [1, 1], [2, 0], [1, -1], [-1, -1]];

function parsePoint(key) {
  const [row, col] = key.split(",").map(Number);
  return { row, col };
}

function adjacent(a, b) {
  const p = parsePoint(a), q = parsePoint(b);
  return NEIGHBOURS.some(([dr, dc]) => p.row + dr === q.row && p.col + dc === q.col);
}

function enemyQueen(state) {
  for (const [key, stack] of Object.entries(state.board.pieces)) {
    if (stack.some((p) => p.type === "Queen Bee" && p.color !== state.player_turn)) return key;
  }
  return null;
}

// listTurns flattens possible_turns into the turns a module may answer.
function listTurns(possible) {
  const turns = [];
  const placement = possible["Placement"];
  if (placement) {
    for (const piece_type of placement.piece_types) {
      for (const destination of placement.positions) turns.push({ turn_type: "Placement", piece_type, destination });
    }
  }
  for (const [source, dests] of Object.entries(possible["Movement"] || {})) {
    for (const destination of dests) turns.push({ turn_type: "Movement", source, destination });
  }
  for (const [ability_user, bySource] of Object.entries(possible["Special Ability"] || {})) {
    for (const [source, dests] of Object.entries(bySource)) {
      for (const destination of dests) turns.push({ turn_type: "Special Ability", ability_user, source, destination });
    }
  }
  return turns;
}

function seededRandom(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
    return h / 4294967296;
  };
}

function score(turn, queen, state) {
  let s = 0;
  if (queen) {
    if (adjacent(turn.destination, queen)) s += 10;
    if (turn.source && adjacent(turn.source, queen)) s -= 10;
  }
  if (turn.turn_type === "Placement" && state.turn_number < 12) s += 2;
  return s;
}

function chooseTurn(state, random) {
  const turns = listTurns(state.possible_turns);
  if (turns.length === 0) return { turn_type: "Forfeit" };
  const queen = enemyQueen(state);
  let best = null, bestScore = -Infinity;
  for (const turn of turns) {
    const s = score(turn, queen, state) + random();
    if (s > bestScore) [best, bestScore] = [turn, s];
  }
  return best;
}

function process_message(message) {
  switch (message.request_type) {
    case "Greetings":
      return {
        response_type: "Greetings", response_id: message.request_id,
        name: "forager", version: "1.0.0", author: "Hive Arbiter tests", active: true,
        description: "surrounds the opponent's queen", language: "JavaScript",
      };
    case "Choose Turn": {
      const random = seededRandom(message.game_id + "/" + message.game_state.turn_number);
      return Object.assign({ response_type: "Choose Turn", response_id: message.request_id, game_id: message.game_id },
        chooseTurn(message.game_state, random));
    }
  }
  throw new Error("unknown request_type " + JSON.stringify(message.request_type));
}

exports.process_message = process_message;
