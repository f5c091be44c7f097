package uhpclient

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DefaultMaxLineBytes bounds one line of engine output.
const DefaultMaxLineBytes = 64 << 10

// Reader reads UHP replies: lines up to an "ok" line. It strips a UTF-8 byte-order mark from
// the first line and accepts CRLF line ends.
type Reader struct {
	sc    *bufio.Scanner
	first bool
}

// errLineTooLong is an engine line over the size limit.
var errLineTooLong = errors.New("line too long")

// NewReader returns a Reader of r with a limit on the length of one line.
func NewReader(r io.Reader, maxLineBytes int) *Reader {
	if maxLineBytes <= 0 {
		maxLineBytes = DefaultMaxLineBytes
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(4096, maxLineBytes)), maxLineBytes)
	return &Reader{sc: sc, first: true}
}

// ReadLine returns the next line without its line end; io.EOF at the end of the output and
// errLineTooLong for a line over the limit.
func (r *Reader) ReadLine() (string, error) {
	if !r.sc.Scan() {
		if err := r.sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				return "", errLineTooLong
			}
			return "", err
		}
		return "", io.EOF
	}
	line := r.sc.Text()
	if r.first {
		line = strings.TrimPrefix(line, "\ufeff")
		r.first = false
	}
	return strings.TrimRight(line, "\r"), nil
}

// ReadReply returns the lines of one reply, without the final "ok".
func (r *Reader) ReadReply() ([]string, error) {
	var lines []string
	for {
		line, err := r.ReadLine()
		if err != nil {
			return lines, err
		}
		if strings.TrimSpace(line) == "ok" {
			return lines, nil
		}
		lines = append(lines, line)
	}
}

// replyError turns err and invalidmove lines of a reply into the caller's errors.
func replyError(engine, command string, lines []string) error {
	var errs []string
	for _, l := range lines {
		switch {
		case l == "err" || strings.HasPrefix(l, "err "):
			errs = append(errs, strings.TrimSpace(strings.TrimPrefix(l, "err")))
		case l == "invalidmove" || strings.HasPrefix(l, "invalidmove "):
			move := strings.TrimSpace(strings.TrimPrefix(command, "play"))
			return &InvalidMoveError{Engine: engine, Command: command, Move: move, Message: strings.TrimSpace(strings.TrimPrefix(l, "invalidmove"))}
		}
	}
	if errs != nil {
		return &EngineError{Engine: engine, Command: command, Message: strings.Join(errs, "; ")}
	}
	return nil
}

// Option is one engine option, as "options" lists it: Name;Type;Value;Default[;Extra...],
// where Extra is Min;Max for numbers and the allowed values for an enum.
type Option struct {
	Name, Type, Value, Default string
	Extra                      []string
}

func (o Option) String() string {
	return strings.Join(append([]string{o.Name, o.Type, o.Value, o.Default}, o.Extra...), ";")
}

// ParseOption reads one line of an "options" reply.
func ParseOption(line string) (Option, error) {
	f := strings.Split(line, ";")
	if len(f) < 4 || f[0] == "" || f[1] == "" {
		return Option{}, fmt.Errorf("uhpclient: %q is not an option line (want Name;Type;Value;Default[;...])", line)
	}
	o := Option{Name: f[0], Type: f[1], Value: f[2], Default: f[3]}
	if len(f) > 4 {
		o.Extra = f[4:]
	}
	return o, nil
}

// Info is what the engine says about itself in its "info" reply.
type Info struct {
	ID           string   // the id line without "id ", e.g. "Mzinga v0.16.0"
	Capabilities []string // e.g. Mosquito, Ladybug, Pillbug
	Lines        []string
}

func parseInfo(lines []string) (Info, bool) {
	info := Info{Lines: lines}
	for i, l := range lines {
		if strings.HasPrefix(l, "id ") {
			info.ID = strings.TrimSpace(l[3:])
			// Capabilities are the last line, when it is not the id line itself.
			if last := lines[len(lines)-1]; i != len(lines)-1 && strings.TrimSpace(last) != "" {
				for _, c := range strings.Split(last, ";") {
					if c = strings.TrimSpace(c); c != "" {
						info.Capabilities = append(info.Capabilities, c)
					}
				}
			}
			return info, true
		}
	}
	return info, false
}

// Supports reports whether the engine advertises every expansion of a GameTypeString.
func (i Info) Supports(gameType string) bool {
	exp, ok := strings.CutPrefix(gameType, "Base")
	if !ok {
		return false
	}
	exp = strings.TrimPrefix(exp, "+")
	for _, letter := range exp {
		name := map[rune]string{'M': "mosquito", 'L': "ladybug", 'P': "pillbug"}[letter]
		if name == "" {
			return false
		}
		found := false
		for _, c := range i.Capabilities {
			if strings.EqualFold(c, name) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}
