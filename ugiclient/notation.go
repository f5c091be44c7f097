package ugiclient

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"hivearbiter/results/outcome"
	"hivearbiter/rules"
)

// EncodeMove writes a MoveString as one UGI token: its space becomes "_" ("bS1 wS1-" is
// "bS1_wS1-"); "wS1" and "pass" stay as they are.
func EncodeMove(move string) string { return strings.ReplaceAll(move, " ", "_") }

// DecodeMove reads a UGI move token back into a MoveString. A token with more than one "_",
// or with a space in it, is no move.
func DecodeMove(token string) (string, error) {
	switch {
	case token == "":
		return "", errors.New("an empty move")
	case strings.ContainsAny(token, " \t"):
		return "", fmt.Errorf("the move %q is more than one token", token)
	case strings.Count(token, "_") > 1:
		return "", fmt.Errorf("the move %q has more than one '_'", token)
	}
	return strings.Replace(token, "_", " ", 1), nil
}

// Position is a game as UGI sends it: a start and the moves played from it, each in the
// arbiter's own notation.
type Position struct {
	GameType rules.GameType
	Moves    []string
}

// NewPosition replays a GameString (or a GameTypeString) through the rules and keeps its
// moves in Mzinga's canonical notation, so that the engine is always sent the same spelling.
func NewPosition(gameString string) (Position, error) {
	g, err := rules.ParseGameString(gameString)
	if err != nil {
		return Position{}, err
	}
	replay := rules.NewGame(g.GameType())
	p := Position{GameType: g.GameType()}
	for _, text := range g.Moves() {
		m, err := replay.ParseMove(text)
		if err != nil {
			return Position{}, err
		}
		p.Moves = append(p.Moves, replay.MoveString(m))
		replay.PlayMove(m)
	}
	return p, nil
}

// Command is the position command: "position startpos" for Base, "position fen GAMETYPE"
// for a game with expansions, then "moves" and the moves when there are any.
func (p Position) Command() string {
	var b strings.Builder
	if p.GameType == rules.Base {
		b.WriteString("position startpos")
	} else {
		b.WriteString("position fen " + p.GameType.String())
	}
	if len(p.Moves) > 0 {
		b.WriteString(" moves")
		for _, m := range p.Moves {
			b.WriteString(" " + EncodeMove(m))
		}
	}
	return b.String()
}

// ProtocolError is a line from the engine that breaks UGI.
type ProtocolError struct {
	Line string
	Msg  string
}

// Error names the line the engine printed (cut at 200 bytes) and what is wrong with it.
func (e *ProtocolError) Error() string {
	line := e.Line
	if len(line) > 200 {
		line = line[:200] + "..."
	}
	return fmt.Sprintf("ugi: %s: %q", e.Msg, line)
}

// ParseBestMove reads a "bestmove M" line: exactly two words, as cutegames reads it. It
// returns the move token as the engine wrote it.
func ParseBestMove(line string) (string, error) {
	f := strings.Fields(line)
	switch {
	case len(f) == 0 || f[0] != "bestmove":
		return "", &ProtocolError{Line: line, Msg: "not a bestmove line"}
	case len(f) == 1:
		return "", &ProtocolError{Line: line, Msg: "bestmove without a move"}
	case len(f) > 2:
		return "", &ProtocolError{Line: line, Msg: fmt.Sprintf("bestmove with %d words instead of 2", len(f))}
	}
	return f[1], nil
}

// ParseResponse reads a "response V" line, the answer to query: exactly two words.
func ParseResponse(line string) (string, error) {
	f := strings.Fields(line)
	if len(f) != 2 || f[0] != "response" {
		return "", &ProtocolError{Line: line, Msg: `want "response VALUE"`}
	}
	return f[1], nil
}

// StateOfResult turns the answers to "query gameover" and "query result" into a
// GameStateString: p1 is White.
func StateOfResult(gameover, result string) (rules.GameState, error) {
	var over bool
	switch gameover {
	case "true":
		over = true
	case "false":
	default:
		return 0, fmt.Errorf("gameover %q: want true or false", gameover)
	}
	var st rules.GameState
	switch result {
	case "p1win":
		st = rules.WhiteWins
	case "p2win":
		st = rules.BlackWins
	case "draw":
		st = rules.Draw
	case "none":
		st = rules.InProgress
	default:
		return 0, fmt.Errorf("result %q: want p1win, p2win, draw or none", result)
	}
	if over != st.IsOver() {
		return 0, fmt.Errorf("gameover %s contradicts result %s", gameover, result)
	}
	return st, nil
}

// Info is one "info" line: the search report fields it set, its "string" text, and its
// "error" text (an engine refusing a command).
type Info struct {
	Search  outcome.SearchInfo
	String  string
	Error   string
	IsError bool
}

// ParseInfo reads an "info" line. Words it does not know are skipped, as UCI asks; a number
// that does not parse is an error. "pv", "string" and "error" take the rest of the line.
func ParseInfo(line string) (Info, error) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "info" {
		return Info{}, &ProtocolError{Line: line, Msg: "not an info line"}
	}
	var in Info
	number := func(i int) (int64, error) {
		if i >= len(f) {
			return 0, &ProtocolError{Line: line, Msg: fmt.Sprintf("info %s without a value", f[i-1])}
		}
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, &ProtocolError{Line: line, Msg: fmt.Sprintf("info %s %s: not a whole number", f[i-1], f[i])}
		}
		return n, nil
	}
	for i := 1; i < len(f); i++ {
		switch f[i] {
		case "depth", "nodes", "time", "nps":
			n, err := number(i + 1)
			if err != nil {
				return Info{}, err
			}
			switch f[i] {
			case "depth":
				in.Search.Depth = int(min(max(n, 0), 1<<30))
			case "nodes":
				in.Search.Nodes = n
			case "time":
				in.Search.Millis = n
			case "nps":
				in.Search.NPS = n
			}
			i++
		case "score":
			if i+1 >= len(f) || (f[i+1] != "cp" && f[i+1] != "mate") {
				return Info{}, &ProtocolError{Line: line, Msg: "info score without cp or mate"}
			}
			n, err := number(i + 2)
			if err != nil {
				return Info{}, err
			}
			v := int(min(max(n, -1<<30), 1<<30))
			if f[i+1] == "cp" {
				in.Search.Score, in.Search.Mate = &v, nil
			} else {
				in.Search.Mate, in.Search.Score = &v, nil
			}
			i += 2
		case "pv":
			in.Search.PV = nil
			for _, tok := range f[i+1:] {
				m, err := DecodeMove(tok)
				if err != nil {
					return Info{}, &ProtocolError{Line: line, Msg: "info pv: " + err.Error()}
				}
				in.Search.PV = append(in.Search.PV, m)
			}
			return in, nil
		case "string", "error":
			text := strings.Join(f[i+1:], " ")
			if f[i] == "string" {
				in.String = text
			} else {
				in.Error, in.IsError = text, true
			}
			return in, nil
		}
	}
	return in, nil
}

// merge adds a later info line's fields to what the search reported so far.
func merge(into *outcome.SearchInfo, in outcome.SearchInfo) {
	if in.Depth > 0 {
		into.Depth = in.Depth
	}
	if in.Score != nil || in.Mate != nil {
		into.Score, into.Mate = in.Score, in.Mate
	}
	if in.Nodes > 0 {
		into.Nodes = in.Nodes
	}
	if in.Millis > 0 {
		into.Millis = in.Millis
	}
	if in.NPS > 0 {
		into.NPS = in.NPS
	}
	if in.PV != nil {
		into.PV = in.PV
	}
}

// Option is one "option" line of the engine's handshake.
type Option struct {
	Name, Type, Default string
	Min, Max            string
	Vars                []string
}

// ParseOption reads "option name N type T [default D] [min A] [max B] [var V]...". The name
// runs up to " type ", so it may hold spaces.
func ParseOption(line string) (Option, error) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "option name ")
	if !ok {
		return Option{}, &ProtocolError{Line: line, Msg: `want "option name N type T ..."`}
	}
	name, rest, ok := strings.Cut(rest, " type ")
	if !ok || strings.TrimSpace(name) == "" {
		return Option{}, &ProtocolError{Line: line, Msg: "option without a name or a type"}
	}
	o := Option{Name: strings.TrimSpace(name)}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return Option{}, &ProtocolError{Line: line, Msg: "option without a type"}
	}
	o.Type = f[0]
	for i := 1; i+1 < len(f); i += 2 {
		switch f[i] {
		case "default":
			o.Default = f[i+1]
		case "min":
			o.Min = f[i+1]
		case "max":
			o.Max = f[i+1]
		case "var":
			o.Vars = append(o.Vars, f[i+1])
		}
	}
	return o, nil
}
