package uhpserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// MaxLineBytes bounds one command line; a longer line is answered with err and skipped.
const MaxLineBytes = 1 << 20

// Server speaks UHP for a Handler, one conversation (one Serve) at a time.
type Server struct {
	handler    Handler
	interrupts <-chan os.Signal

	mu     sync.Mutex
	cancel context.CancelFunc // of the running command, nil between commands
}

// ServerOption configures a Server.
type ServerOption func(*Server)

// WithInterrupts makes each signal received on c while Serve runs interrupt the running
// command, as Ctrl-C does in Mzinga. Pass a channel given to signal.Notify(c, os.Interrupt):
// a viewer stops a bestmove with SIGINT and expects the engine to answer, not to exit.
func WithInterrupts(c <-chan os.Signal) ServerOption {
	return func(s *Server) { s.interrupts = c }
}

// NewServer returns a Server for h.
func NewServer(h Handler, opts ...ServerOption) *Server {
	s := &Server{handler: h}
	for _, opt := range opts {
		opt(s)
	}
	return s
}

// Interrupt cancels the context of the running command, if any: a running bestmove then
// answers at once with the best move found so far. It does nothing between commands. It is
// safe to call from any goroutine.
func (s *Server) Interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

// Serve prints the info banner, then answers the commands read from in, one at a time, until
// "exit" or the end of in; it returns nil then. Lines that arrive while a command runs wait
// for it to finish. Serve returns ctx's error once ctx ends (after answering the command
// running then), and returns an error if in or out fails. If ctx ends while Serve waits for
// a line, the read under way on in is abandoned to a goroutine that ends with it.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	if s.interrupts != nil {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			for {
				select {
				case <-s.interrupts:
					s.Interrupt()
				case <-stop:
					return
				}
			}
		})
		defer wg.Wait()
		defer close(stop)
	}
	o := &output{w: bufio.NewWriter(out)}
	if err := s.execute(ctx, o, "info", nil); err != nil {
		return err
	}
	lines := &lineReader{r: bufio.NewReaderSize(in, 64<<10), results: make(chan lineResult, 1)}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := lines.next(ctx)
		switch {
		case errors.Is(err, errLineTooLong):
			o.print(fmt.Sprintf("err Invalid command. A command may be at most %d bytes long.", MaxLineBytes))
			o.print("ok")
			if err := o.flush(); err != nil {
				return err
			}
			continue
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
		fields := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
		if len(fields) == 0 {
			continue
		}
		name := strings.ToLower(fields[0])
		if name == "exit" {
			return nil
		}
		if err := s.execute(ctx, o, name, fields[1:]); err != nil {
			return err
		}
	}
}

// execute runs one command under its own context, which Interrupt cancels, and prints its
// reply and "ok".
func (s *Server) execute(ctx context.Context, o *output, name string, args []string) error {
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel()
	}()

	reply, err := s.run(ctx, o, name, args)
	var invalid *InvalidMoveError
	var refused *Error
	switch {
	case err == nil:
		o.print(reply)
	case errors.As(err, &invalid):
		o.print("invalidmove " + oneLine(invalid.Message))
	case errors.As(err, &refused):
		o.print("err " + oneLine(refused.Message))
	default:
		o.print("err " + oneLine(err.Error()))
	}
	o.print("ok")
	return o.flush()
}

// run dispatches a command. A panic in the handler becomes an error: no command may bring
// the engine down.
func (s *Server) run(ctx context.Context, o *output, name string, args []string) (reply string, err error) {
	defer func() {
		if p := recover(); p != nil {
			reply, err = "", fmt.Errorf("%v", p)
		}
	}()
	return s.dispatch(ctx, o, name, args)
}

// oneLine keeps an error on its line, as clients read only the first line of one.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// output writes replies and remembers the first failure.
type output struct {
	w   *bufio.Writer
	err error
}

// print writes text, which may hold several lines, ending it with a newline if it lacks one.
func (o *output) print(text string) {
	if text == "" || o.err != nil {
		return
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	_, o.err = o.w.WriteString(text)
}

func (o *output) flush() error {
	if o.err == nil {
		o.err = o.w.Flush()
	}
	if o.err != nil {
		return fmt.Errorf("uhpserver: writing a reply: %w", o.err)
	}
	return nil
}

var errLineTooLong = errors.New("uhpserver: line too long")

// lineReader reads one line at a time, only when asked, on a goroutine so that waiting for
// it can end with a context. Lines not asked for stay in in, or in its buffer.
type lineReader struct {
	r       *bufio.Reader
	results chan lineResult // buffered, so that an abandoned read can still end
}

type lineResult struct {
	line string
	err  error
}

// next returns the next line without its line end, errLineTooLong for a line longer than
// MaxLineBytes, io.EOF at the end of the input, or ctx's error.
func (l *lineReader) next(ctx context.Context) (string, error) {
	go func() {
		line, err := readLine(l.r)
		l.results <- lineResult{line, err}
	}()
	select {
	case res := <-l.results:
		return res.line, res.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func readLine(r *bufio.Reader) (string, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			tooLong = len(line) > MaxLineBytes+2 // room for "\r\n"; the rest is dropped
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(line) == 0 {
				return "", io.EOF
			}
		case err != nil:
			return "", fmt.Errorf("uhpserver: reading commands: %w", err)
		}
		text := strings.TrimRight(string(line), "\r\n")
		if tooLong || len(text) > MaxLineBytes {
			return "", errLineTooLong
		}
		return text, nil
	}
}
