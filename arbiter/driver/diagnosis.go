package driver

import (
	"errors"
	"strings"
	"unicode"

	"hivearbiter/rules"
)

// Diagnosis is one fault the arbiter can see in an engine, with what it saw, the likely
// cause and the fix. The table of them (Diagnoses) is the one home of these words: the
// check ("arbiter check"), the check before a run's first game and a game's record all say
// them from here, so that check and match never say two things of one behaviour, and
// docs/check.md ("my engine fails check") is tested against it.
type Diagnosis struct {
	// ID names the diagnosis for good: tests and the docs find it by this name.
	ID string
	// Fault is the fault in a few words, as a heading says it: `a move and no "ok"`.
	Fault string
	// Seen is what the arbiter saw, in general terms; the message that carries the diagnosis
	// quotes what this engine printed.
	Seen string
	// Cause is the likely cause, and Fix what the engine's author does about it.
	Cause, Fix string
	// Warning is set for a fault that loses no game: it is kept in the record as a warning.
	Warning bool
}

// The diagnoses' IDs.
const (
	DiagnosisNoOutput         = "no-output"
	DiagnosisNoNewline        = "no-newline"
	DiagnosisBannerOnInfo     = "banner-on-info"
	DiagnosisMissingOK        = "missing-ok"
	DiagnosisLinesBeforeReply = "lines-before-reply"
	DiagnosisMoveCase         = "move-case"
	DiagnosisMoveSide         = "move-side"
	DiagnosisMoveNotation     = "move-notation"
	DiagnosisGameTypeIgnore   = "gametype-ignored"
	DiagnosisGameStringIgnore = "gamestring-ignored"
	DiagnosisCrash            = "crash"
	DiagnosisOverrun          = "overrun"
)

// flush is how to flush standard output in the languages engines are written in.
const flush = `flush standard output after every reply (Python: print(..., flush=True) or sys.stdout.flush(); C: fflush(stdout); C++: std::cout << std::flush; Rust: std::io::stdout().flush(); Go: write to os.Stdout unbuffered, or Flush a bufio.Writer)`

// diagnoses is the table, in the order a conversation meets them: start-up, replies, moves,
// games, crashes, time.
var diagnoses = []Diagnosis{
	{ID: DiagnosisNoOutput, Fault: "nothing received",
		Seen:  "the engine printed nothing on its standard output, not even part of a line",
		Cause: "it writes nothing, or its output waits in a buffer it never flushes: to a pipe, as the arbiter reads it, Python, C, C++ and Rust buffer standard output where a terminal would show each line at once",
		Fix:   flush + `; print the banner at start-up, before reading any command`},
	{ID: DiagnosisNoNewline, Fault: "bytes received without a newline",
		Seen:  "the engine printed text but did not end the line",
		Cause: `its last line has no line end: a write without "\n", or output flushed only up to the end of a buffer`,
		Fix:   `end every line with "\n" (Python: print adds it; sys.stdout.write does not), and ` + flush},
	{ID: DiagnosisBannerOnInfo, Fault: "a banner only after info",
		Seen:  `the engine printed no banner at start-up, and printed it when it was asked "info"`,
		Cause: `UHP asks for the banner at start-up, unasked: the engine answers "info" but does not print the banner when it starts`,
		Fix:   `print the banner ("id NAME VERSION", the line of the expansions it plays, then "ok") as soon as it starts, before reading any command, as well as in answer to "info"`},
	{ID: DiagnosisMissingOK, Fault: `a reply and no "ok"`,
		Seen:  `the engine printed its answer (a move, a GameString) but no line "ok" after it`,
		Cause: `every UHP reply ends with a line "ok": without it the arbiter cannot know the reply is whole, and waits until its time is up; this is a fault of the protocol, not of the engine's speed`,
		Fix:   `print a line "ok" after every reply, bestmove's included, and ` + flush},
	{ID: DiagnosisLinesBeforeReply, Fault: "lines before the move", Warning: true,
		Seen:  "the engine printed other lines before its answer",
		Cause: `debug or progress output on standard output: the arbiter takes the last line before "ok" as the answer, but other UHP hosts (viewers, tournament tools) break on the lines before it`,
		Fix:   `print only the answer, then "ok"; write debug output to standard error`},
	{ID: DiagnosisMoveCase, Fault: "a move in another case", Warning: true,
		Seen:  "the engine answered a move whose letters are in the wrong case",
		Cause: "piece letters are case-sensitive in UHP: the colour is a lower-case w or b and the bug an upper-case letter (wS1, bQ, wA2); the arbiter reads the move as Mzinga does, whatever its case, but other hosts do not",
		Fix:   "write the colour in lower case and the bug in upper case: wS1, not ws1 or WS1"},
	{ID: DiagnosisMoveSide, Fault: "a move of the other side",
		Seen:  "the engine answered a move for the side that is not to move",
		Cause: `its game is not the arbiter's: it did not take the GameString of "newgame" whole, or missed a move sent by "play", so it thinks the other side is to move`,
		Fix:   `load every move of the GameString given to "newgame", play each move sent by "play", and move for the side whose turn the GameString names`},
	{ID: DiagnosisMoveNotation, Fault: "a move in another notation",
		Seen:  "the engine answered text that is not a MoveString",
		Cause: `its notation is not UHP's: a MoveString is the piece, a space, then the piece it moves next to with the direction on its side (wS1, "bA1 wS1/", "wQ -bG2"; "pass" when it must pass)`,
		Fix:   "write moves in UHP's MoveString notation, as validmoves lists them (reference: docs/protocols.md)"},
	{ID: DiagnosisGameTypeIgnore, Fault: "a game type ignored",
		Seen:  `the engine answered "newgame" of a game type by a game of another type`,
		Cause: `it does not read the game type of "newgame", or not its expansions, or it advertises expansions it does not play; one cause, which every game type it is asked for shows again`,
		Fix:   `start a game of the type "newgame" names (Base+MLP is Base with the Mosquito, Ladybug and Pillbug) and advertise only the expansions it plays; an engine of Base alone advertises none, and is played with -gametype Base`},
	{ID: DiagnosisGameStringIgnore, Fault: "a GameString ignored",
		Seen:  `the engine answered "newgame" with a full GameString by a game without its moves`,
		Cause: `it reads the game type of "newgame" but not the moves after it, so it plays from another position than the arbiter's (and every opening of a match is such a GameString)`,
		Fix:   `on "newgame GAMESTRING", start a game of its type and play each of its moves in turn, then answer the GameString of that position`},
	{ID: DiagnosisCrash, Fault: "a crash",
		Seen:  "the engine exited while the arbiter waited for its reply",
		Cause: "it crashed: the traceback or panic message on its standard error names the file and line",
		Fix:   "fix the error its standard error names (the excerpt keeps the traceback's last frame whole; -transcript FILE keeps the whole conversation)"},
	{ID: DiagnosisOverrun, Fault: "an overrun",
		Seen:  "the engine answered later than its time allowed, margin included",
		Cause: "it searches longer than the budget it is sent, or its output waits in a buffer until the search ends",
		Fix:   "stop the search at the budget sent (bestmove time hh:mm:ss.fff), and " + flush + "; or give it the margin its overshoot needs (margin=SECONDS: arbiter check measures it) or a longer time control"},
}

// Diagnoses is the table of every diagnosis, in the order a conversation meets them.
func Diagnoses() []Diagnosis { return append([]Diagnosis(nil), diagnoses...) }

// LookupDiagnosis returns the diagnosis of an ID; ok is false for an unknown one.
func LookupDiagnosis(id string) (d Diagnosis, ok bool) {
	for _, d := range diagnoses {
		if d.ID == id {
			return d, true
		}
	}
	return Diagnosis{}, false
}

// mustDiagnosis is LookupDiagnosis for the IDs above.
func mustDiagnosis(id string) Diagnosis {
	d, ok := LookupDiagnosis(id)
	if !ok {
		panic("driver: no diagnosis " + id)
	}
	return d
}

// Advice is the cause and the fix in one sentence without its full stop, as a message that
// has said what it saw ends: "likely cause: ...; fix: ...".
func (d Diagnosis) Advice() string {
	return "likely cause: " + d.Cause + "; fix: " + d.Fix
}

// Headline is the fault, the cause and the fix in one line, as the first line of a check's
// report names them.
func (d Diagnosis) Headline() string {
	return d.Fault + ": " + d.Cause + ". Fix: " + d.Fix
}

// DiagnosedError is an engine's failure with its diagnosis: its message is the failure's,
// then the diagnosis' advice.
type DiagnosedError struct {
	Diagnosis Diagnosis
	Err       error
}

// Error returns what went wrong, as a user reads it.
func (e *DiagnosedError) Error() string {
	return e.Err.Error() + " (" + e.Diagnosis.Advice() + ")"
}

// Unwrap returns the error underneath, for errors.Is and errors.As.
func (e *DiagnosedError) Unwrap() error { return e.Err }

// Diagnose gives err the diagnosis of id; a nil err stays nil, and an err that already has a
// diagnosis keeps it.
func Diagnose(id string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := DiagnosisOf(err); ok {
		return err
	}
	return &DiagnosedError{Diagnosis: mustDiagnosis(id), Err: err}
}

// DiagnosisOf returns the diagnosis that err carries, if any.
func DiagnosisOf(err error) (Diagnosis, bool) {
	if de, ok := errors.AsType[*DiagnosedError](err); ok {
		return de.Diagnosis, true
	}
	return Diagnosis{}, false
}

// Diagnosed is a text that says what was seen, followed by the diagnosis' advice: the words
// a game's record, the check before the first game and the check all give one fault.
func Diagnosed(id, seen string) string {
	return seen + " (" + mustDiagnosis(id).Advice() + ")"
}

// DiagnoseMove says why an engine's answer to bestmove, which the referee refused in
// position, is no legal move, when the table knows why: a move of the side not to move, or
// text that is no MoveString. ok is false for a legal move, and for a legal-looking move that
// the rules forbid, which is the engine's own bug.
func DiagnoseMove(position *rules.Game, answer string) (d Diagnosis, ok bool) {
	answer = strings.TrimSpace(answer)
	err := parseErr(position, answer)
	if err == nil {
		return Diagnosis{}, false
	}
	if ime, isInvalid := errors.AsType[*rules.InvalidMoveError](err); isInvalid {
		if ime.Reason == rules.ReasonNotYourTurn || otherSide(position, answer) {
			return mustDiagnosis(DiagnosisMoveSide), true
		}
		return Diagnosis{}, false
	}
	return mustDiagnosis(DiagnosisMoveNotation), true
}

func parseErr(position *rules.Game, s string) error {
	_, err := position.ParseMove(s)
	return err
}

// MoveCaseWrong reports whether a move's piece letters are not in UHP's case (wS1): the
// referee reads such a move, as Mzinga does, and the record warns of it (DiagnosisMoveCase).
func MoveCaseWrong(answer string) bool {
	answer = strings.TrimSpace(answer)
	return fixCase(answer) != answer
}

// otherSide reports whether answer moves a piece of the side not to move.
func otherSide(position *rules.Game, answer string) bool {
	if answer == "" || answer == "pass" {
		return false
	}
	colour := "w"
	if position.ToMove() == rules.Black {
		colour = "b"
	}
	return (answer[0] == 'w' || answer[0] == 'b') && answer[:1] != colour
}

// fixCase writes each piece of a MoveString in UHP's case: the colour lower, the bug upper.
func fixCase(s string) string {
	if strings.EqualFold(s, "pass") {
		return strings.ToLower(s)
	}
	b := []rune(s)
	for i := 0; i+1 < len(b); i++ {
		c, bug := unicode.ToLower(b[i]), unicode.ToUpper(b[i+1])
		if (c == 'w' || c == 'b') && strings.ContainsRune("QSBGAMLP", bug) && (i == 0 || !unicode.IsLetter(b[i-1])) {
			b[i], b[i+1] = c, bug
			i++
		}
	}
	return string(b)
}

// GameStringIgnored reports whether a player answered "newgame" with a GameString of moves
// (sent) by a game of the same type without them (answered): it read the game type and
// dropped the moves.
func GameStringIgnored(sent, answered string) bool {
	want, err := rules.ParseGameString(sent)
	if err != nil || want.Ply() == 0 {
		return false
	}
	got, err := rules.ParseGameString(answered)
	return err == nil && got.Ply() == 0 && got.GameType() == want.GameType()
}

// GameTypeIgnored reports whether a player answered "newgame" of a game type or a GameString
// (sent) by a game of another type (answered).
func GameTypeIgnored(sent, answered string) bool {
	want, err := rules.ParseGameString(sent)
	if err != nil {
		return false
	}
	got, err := rules.ParseGameString(answered)
	return err == nil && got.GameType() != want.GameType()
}
