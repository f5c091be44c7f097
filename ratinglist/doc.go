// Package ratinglist keeps a standing rating list of Hive engines, as CCRL and CEGT keep lists
// of chess engines: a list is its conditions (game type, one time control, openings,
// adjudication, an anchor, an error target) and its entrants (engine versions, each identified
// by a hash of its program), and every game ever played for it, in one append-only records
// file.
//
// The list grows by batches. Each batch is a gauntlet of game pairs of one entrant against
// entrants already on the list, chosen from the ratings of all games so far to shrink its
// error fastest; the next batch is a pure function of the list, its refusals and the records
// of the batches before it, so a killed run resumes the same batch and goes on to the same next
// ones, and an entrant added later plays only its own games. An entrant enters by a check under
// the list's conditions (Runner.Check, then a start as its first game would start it); one that
// fails is refused, its refusal kept in the checks folder (Refusal), and the list goes on
// without it. The table (Compute) is a pure function of the
// list and its records: maximum-likelihood ratings of all games at once, anchored, with the
// White advantage, 95% error bars, LOS between neighbours and head-to-head scores; Verify
// re-referees every game and recomputes it.
//
// Package configs reads a list's TOML file; package ratinglist/site writes its pages.
package ratinglist
