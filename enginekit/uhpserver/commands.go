package uhpserver

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

var errInvalidCommand = &Error{Message: ErrInvalidCommand}

// dispatch parses a command's arguments and calls the handler. name is in lower case; args
// hold no blanks.
func (s *Server) dispatch(ctx context.Context, o *output, name string, args []string) (string, error) {
	h := s.handler
	switch name {
	case "info":
		if len(args) > 0 {
			return "", errInvalidCommand
		}
		info := h.Info()
		// The capabilities line is printed even when empty: clients read it as the last line.
		return "id " + info.ID + "\n" + strings.Join(info.Capabilities, ";") + "\n", nil
	case "help", "?":
		return s.help(args)
	case "newgame":
		return h.NewGame(ctx, strings.Join(args, " "))
	case "play":
		if len(args) == 0 {
			return "", errInvalidCommand
		}
		return h.Play(ctx, strings.Join(args, " "))
	case "pass":
		if len(args) > 0 {
			return "", errInvalidCommand
		}
		return h.Play(ctx, "pass")
	case "validmoves":
		if len(args) > 0 {
			return "", errInvalidCommand
		}
		return h.ValidMoves(ctx)
	case "bestmove":
		limit, err := parseLimit(args)
		if err != nil {
			return "", err
		}
		return h.BestMove(ctx, limit)
	case "undo":
		plies := 1
		if len(args) > 1 {
			return "", errInvalidCommand
		}
		if len(args) == 1 {
			n, err := strconv.Atoi(args[0])
			if err != nil {
				return "", errInvalidCommand
			}
			plies = n
		}
		return h.Undo(ctx, plies)
	case "options":
		return options(h, args)
	case "perft":
		if p, ok := h.(Perfter); ok {
			return "", perft(ctx, p, o, args)
		}
	}
	if c, ok := h.(Commander); ok {
		for _, cmd := range c.Commands() {
			if strings.EqualFold(cmd.Name, name) {
				return c.Command(ctx, name, args)
			}
		}
	}
	return "", errInvalidCommand
}

// parseLimit reads the arguments of bestmove: none, "depth N" or "time hh:mm:ss[.fff]".
func parseLimit(args []string) (BestMoveArgs, error) {
	if len(args) == 0 {
		return BestMoveArgs{}, nil
	}
	if len(args) != 2 {
		return BestMoveArgs{}, errInvalidCommand
	}
	switch strings.ToLower(args[0]) {
	case "depth":
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 {
			return BestMoveArgs{}, errInvalidCommand
		}
		return BestMoveArgs{Depth: n}, nil
	case "time":
		d, ok := ParseTime(args[1])
		if !ok || d <= 0 {
			return BestMoveArgs{}, &Error{Message: fmt.Sprintf(
				"The time \"%s\" is not valid. Use hh:mm:ss above zero, such as 00:00:05 or 00:00:00.5.", args[1])}
		}
		return BestMoveArgs{Time: d}, nil
	}
	return BestMoveArgs{}, errInvalidCommand
}

func options(h Handler, args []string) (string, error) {
	switch {
	case len(args) == 0:
		var b strings.Builder
		for _, o := range h.Options() {
			b.WriteString(o.String())
			b.WriteByte('\n')
		}
		return b.String(), nil
	case len(args) == 2 && strings.EqualFold(args[0], "get"):
		o, err := h.GetOption(args[1])
		return o.String(), err
	case len(args) == 3 && strings.EqualFold(args[0], "set"):
		o, err := h.SetOption(args[1], args[2])
		return o.String(), err
	}
	return "", errInvalidCommand
}

// perft prints each depth's line as soon as the handler has it: deep counts take minutes.
func perft(ctx context.Context, p Perfter, o *output, args []string) error {
	depth := -1
	switch len(args) {
	case 0:
	case 1:
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return errInvalidCommand
		}
		if n < 0 {
			return &Error{Message: fmt.Sprintf("Unable to calculate perft(%d).", n)}
		}
		depth = n
	default:
		return errInvalidCommand
	}
	return p.Perft(ctx, depth, func(line string) {
		o.print(line)
		o.flush() // a failure is kept in o and reported after the command
	})
}

var builtinHelp = []Command{
	{"info", "info\n  Prints the engine's id and capabilities."},
	{"newgame", "newgame [GameTypeString|GameString]\n  Starts a new game (Base by default), or loads a GameString."},
	{"play", "play MoveString\n  Plays a move and prints the new GameString."},
	{"pass", "pass\n  Passes (legal only when there is no other move)."},
	{"validmoves", "validmoves\n  Prints every valid move, separated by semicolons."},
	{"bestmove", "bestmove [time hh:mm:ss | depth N]\n  Searches and prints the best move; Ctrl-C stops the search early."},
	{"undo", "undo [N]\n  Takes back N plies (1 by default)."},
	{"options", "options [get NAME | set NAME VALUE]\n  Lists, reads or sets engine options."},
	{"perft", "perft [N]\n  Counts the move tree to depth N; Ctrl-C stops it."},
	{"help", "help [command]\n  Lists the commands, or explains one."},
	{"exit", "exit\n  Ends the engine."},
}

// commands lists what help shows: the built-in commands the handler supports, then its own.
func (s *Server) commands() []Command {
	var list []Command
	for _, c := range builtinHelp {
		if _, ok := s.handler.(Perfter); ok || c.Name != "perft" {
			list = append(list, c)
		}
		if c.Name == "perft" {
			if c, ok := s.handler.(Commander); ok {
				list = append(list, c.Commands()...)
			}
		}
	}
	return list
}

func (s *Server) help(args []string) (string, error) {
	list := s.commands()
	switch len(args) {
	case 0:
		var b strings.Builder
		b.WriteString("Available commands:\n")
		for _, c := range list {
			b.WriteString(c.Name + "\n")
		}
		b.WriteString("Try 'help <command>' to see help for a particular command.")
		return b.String(), nil
	case 1:
		name := strings.ToLower(args[0])
		if name == "?" {
			name = "help"
		}
		for _, c := range list {
			if strings.EqualFold(c.Name, name) {
				return c.Help, nil
			}
		}
	}
	return "", errInvalidCommand
}
