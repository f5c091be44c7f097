// Package enginekit holds nothing itself: its subpackages are what a Hive engine is built from
// (the engine author's side), not what plays engines.
//
//   - uhpserver turns a Handler into a UHP engine on standard input and output (hivebot,
//     arbiter serve), and uhpserver/uhpfake builds fake UHP engines for tests from it;
//   - ugiserver turns a Searcher into a UGI engine for Hive (hivebot's UGI mode);
//   - search is the alpha-beta search, and hivebot the bundled engine built on it.
//
// The clients that play engines are elsewhere: uhpclient and ugiclient speak to an engine's
// process, proto/ puts each protocol behind the arbiter's player seam. Nothing here imports
// the arbiter (see docs/architecture.md, import rules): an engine never links what judges it.
package enginekit
