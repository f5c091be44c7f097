// Package engine holds nothing itself: its subpackages are the engine author's side of Hive
// Arbiter, what an engine is built from, not what plays it.
//
// A newcomer from fastchess, whose engine/ folder is the tournament's side (the process, its
// options, the UCI client and its compliance check), should look for that side elsewhere
// here: the arbiter's client of an engine is in uhpclient and proto/ (one directory per
// protocol, each with its check suite), and the process supervisor in internal/proc. Below
// engine/ is the other end of the pipe:
//
//   - uhpengine turns a Handler into a UHP engine on standard input and output (hivebot,
//     arbiter serve), and uhpengine/uhpfake builds fake UHP engines for tests from it;
//   - ugiengine turns a Searcher into a UGI engine for Hive (hivebot's UGI mode);
//   - search is the alpha-beta search, and hivebot the bundled engine built on it.
//
// Nothing here imports the arbiter (see docs/architecture.md, import rules): an engine never
// links what judges it.
package engine
