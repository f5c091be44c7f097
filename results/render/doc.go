// Package render writes what package results holds for people to read: the result block of a
// match, the field, rating, fault, time and cross tables, the verdict of an SPRT, what arbiter
// sprt-calc and arbiter stats print, and one Table that every console and Markdown table of the
// arbiter is written through. Package results keeps the data (records, PGN, tallies, summaries);
// this package only words it, so that a front end, a CI job summary and a rating list's page show
// the same figures the same way.
package render
