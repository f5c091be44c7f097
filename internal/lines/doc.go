// Package lines reads the lines a player prints, with a bound on each, and quotes them in
// errors. Every transport reads its peer's output here: package uhpclient's replies (through
// a Conn, which reads in the caller's goroutine), package linepeer's lines (over pipes or
// TCP, through Send), and the standard error that package proc keeps the tail of.
//
// A player's output is read as it is, not as a protocol describes it: a UTF-8 byte-order
// mark before the first line and CRLF line ends (Mzinga on mono) are dropped, a last line
// without its newline is still a line, and a line over the bound comes cut, with
// ErrTooLong, as soon as the bound is passed, its rest skipped without being kept.
package lines
