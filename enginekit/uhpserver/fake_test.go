package uhpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// fakeHandler is a scripted engine with just enough game to reach every path of the
// protocol. It implements Perfter and Commander too. It is a probe of the Server rather
// than a fake engine: its answers echo what the Server parsed (limits, undo counts, newgame
// and play arguments), which the transcripts check. Fake engines for the tests of clients are
// package uhpfake's, built on this package.
type fakeHandler struct {
	started bool
	remote  bool
	moves   []string
	state   string
	hash    string
	ponder  string

	// running, when set, makes a bestmove or perft without a limit report on it and then
	// run until its context ends; otherwise they answer at once.
	running chan<- string
}

var (
	_ Handler   = (*fakeHandler)(nil)
	_ Perfter   = (*fakeHandler)(nil)
	_ Commander = (*fakeHandler)(nil)
)

// plain hides the optional interfaces of the Handler it holds.
type plain struct{ Handler }

func (h *fakeHandler) Info() Info {
	return Info{ID: "fake v1.2.3", Capabilities: []string{"Mosquito", "Ladybug", "Pillbug"}}
}

func (h *fakeHandler) gameString() string {
	state := h.state
	if state == "" {
		state = "InProgress"
		if len(h.moves) == 0 {
			state = "NotStarted"
		}
	}
	color := "White"
	if len(h.moves)%2 == 1 {
		color = "Black"
	}
	fields := []string{"Base", state, fmt.Sprintf("%s[%d]", color, 1+len(h.moves)/2)}
	return strings.Join(append(fields, h.moves...), ";")
}

func (h *fakeHandler) NewGame(ctx context.Context, arg string) (string, error) {
	switch {
	case arg == "boom":
		panic("handler exploded")
	case arg == "multi":
		return "", errors.New("Couldn't parse expansion pieces.\r\nParameter name: boardString")
	case arg == "wrapped":
		return "", fmt.Errorf("fake: loading: %w", &Error{Message: "Only the message reaches the viewer."})
	case arg == "" || arg == "Base" || arg == "remote":
		*h = fakeHandler{started: true, remote: arg == "remote", hash: h.hash, ponder: h.ponder, running: h.running}
		return h.gameString(), nil
	case strings.HasPrefix(arg, "Base;"):
		*h = fakeHandler{started: true, hash: h.hash, ponder: h.ponder, running: h.running}
		h.moves = strings.Split(arg, ";")[3:]
		return h.gameString(), nil
	}
	return "", &Error{Message: fmt.Sprintf("Unable to parse '%s' in GameString. (Parameter 'gameStr')", arg)}
}

func (h *fakeHandler) Play(ctx context.Context, move string) (string, error) {
	switch {
	case !h.started:
		return "", &Error{Message: ErrNoGame}
	case h.state != "":
		return "", &Error{Message: ErrGameOver}
	case move == "wQ":
		return "", &InvalidMoveError{Message: "You can't play your Queen Bee on your first turn."}
	case move == "forfeit":
		h.state = "WhiteWins"
		if len(h.moves)%2 == 0 {
			h.state = "BlackWins"
		}
		return h.gameString(), nil
	}
	h.moves = append(h.moves, move)
	if !h.remote {
		return h.gameString(), nil
	}
	// Remote play: the viewer's game, the opponent's answer, and the game after it.
	mine := h.gameString()
	piece, _, _ := strings.Cut(move, " ")
	reply := "bB1 -" + piece
	h.moves = append(h.moves, reply)
	return mine + "\n" + reply + "\n" + h.gameString(), nil
}

func (h *fakeHandler) ValidMoves(ctx context.Context) (string, error) {
	if !h.started {
		return "", &Error{Message: ErrNoGame}
	}
	return "wS1;wB1;wG1;wA1", nil
}

func (h *fakeHandler) BestMove(ctx context.Context, l BestMoveArgs) (string, error) {
	switch {
	case ctx.Err() != nil:
		return "", fmt.Errorf("fake: interrupted before the search: %w", ctx.Err())
	case l.Depth > 0:
		return fmt.Sprintf("wA1 (depth %d)", l.Depth), nil
	case l.Time > 0:
		return fmt.Sprintf("wG1 (time %v)", l.Time), nil
	case h.running == nil:
		return "wS1", nil
	}
	h.running <- "bestmove"
	<-ctx.Done()
	return "wS1 (interrupted)", nil
}

func (h *fakeHandler) Undo(ctx context.Context, n int) (string, error) {
	if n < 1 || n > len(h.moves) {
		return "", &Error{Message: fmt.Sprintf("Unable to undo %d moves.", n)}
	}
	h.moves = h.moves[:len(h.moves)-n]
	h.state = ""
	return h.gameString(), nil
}

func (h *fakeHandler) Options() []Option {
	return []Option{
		{Name: "Hash", Type: "int", Value: or(h.hash, "16"), Default: "16", Extra: []string{"1", "1024"}},
		{Name: "Ponder", Type: "bool", Value: or(h.ponder, "False"), Default: "False"},
	}
}

func or(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

func (h *fakeHandler) GetOption(name string) (Option, error) {
	for _, o := range h.Options() {
		if o.Name == name {
			return o, nil
		}
	}
	return Option{}, &Error{Message: fmt.Sprintf("The option \"%s\" is not valid.", name)}
}

func (h *fakeHandler) SetOption(name, value string) (Option, error) {
	switch name {
	case "Hash":
		h.hash = value
	case "Ponder":
		h.ponder = value
	}
	return h.GetOption(name)
}

func (h *fakeHandler) Perft(ctx context.Context, depth int, line func(string)) error {
	if depth == -1 {
		line("perft(0) = 1")
		if h.running != nil {
			h.running <- "perft"
			<-ctx.Done()
		}
		return nil
	}
	for d := 0; d <= depth; d++ {
		if d > 3 {
			return &Error{Message: fmt.Sprintf("Unable to calculate perft(%d).", d)}
		}
		line(fmt.Sprintf("perft(%d) = %d", d, 1<<d))
	}
	return nil
}

func (h *fakeHandler) Commands() []Command {
	return []Command{{Name: "licenses", Help: "licenses\n  Prints the licenses."}}
}

func (h *fakeHandler) Command(ctx context.Context, name string, args []string) (string, error) {
	if len(args) > 0 {
		return "", &Error{Message: ErrInvalidCommand}
	}
	return "fake is free software.", nil
}
