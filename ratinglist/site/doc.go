// Package site writes a rating list's pages and tables: Write makes a folder of self-contained
// pages that work from disk (file://) as from any static host, with nothing fetched from
// elsewhere (the style is in each page, the charts are SVG drawn here, the fonts are the
// reader's own); WriteConsole and WriteMarkdown write the table for a terminal and for a
// GitHub page.
//
// The site's folder holds:
//
//	index.html        the ranked table beside the list's conditions
//	head-to-head.html every pairing's score, as a matrix
//	engines/S.html    an engine's page: its versions' ratings over time, their results
//	                  against each opponent, their check reports
//	engines/S.pgn     the engine's games
//	games.pgn         every game of the list, so that anyone can recompute the table
//	table.json        the table, as package ratinglist computes it (TableJSON)
//	table.csv         one line per entrant, for other tools
//
// Everything is a function of the list, its table, its records and its check reports: the
// site can be written again at any time, and each file is replaced whole.
package site
