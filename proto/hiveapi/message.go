package hiveapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// The requests of the API, and the version of it this package speaks.
const (
	Greetings     = "Greetings"
	ChooseTurn    = "Choose Turn"
	SystemVersion = "0.1.0"
)

// GreetingsRequest asks a module who it is.
type GreetingsRequest struct {
	RequestType   string `json:"request_type"`
	RequestID     string `json:"request_id"`
	SystemVersion string `json:"system_version"`
}

// ChooseTurnRequest asks a module for its turn. The times are milliseconds since the Unix
// epoch: past ResponseDeadline the module loses.
type ChooseTurnRequest struct {
	RequestType      string     `json:"request_type"`
	RequestID        string     `json:"request_id"`
	GameID           string     `json:"game_id"`
	RequestTimestamp int64      `json:"request_timestamp"`
	ResponseDeadline int64      `json:"response_deadline"`
	GameState        *GameState `json:"game_state"`
}

// Response is a module's answer to either request; fields it does not know are ignored. The
// modules give the request's id back as response_id, the API's document as request_id: either
// is read.
type Response struct {
	ResponseType string  `json:"response_type"`
	ResponseID   *string `json:"response_id"`
	RequestID    *string `json:"request_id"`
	// Success is false when the module's code threw; Error then says what it threw.
	Success *bool           `json:"success"`
	Error   json.RawMessage `json:"error"`

	// Greetings.
	Name     string `json:"name"`
	Version  string `json:"version"`
	Author   string `json:"author"`
	LongName string `json:"long_name"`
	Active   *bool  `json:"active"`

	// Choose Turn.
	Turn
}

// ID is the request id the response answers, "" when it gives none.
func (r *Response) ID() string {
	switch {
	case r.ResponseID != nil:
		return *r.ResponseID
	case r.RequestID != nil:
		return *r.RequestID
	}
	return ""
}

// ReplyError is a reply that is not a response: not JSON, or not a JSON object.
type ReplyError struct {
	Text string // what the module sent, shortened
	Why  string
}

// Error returns what went wrong, as a user reads it.
func (e *ReplyError) Error() string {
	return fmt.Sprintf("hiveapi: unreadable reply %s: %s", e.Text, e.Why)
}

// ParseResponse reads one reply of a module.
func ParseResponse(data []byte) (*Response, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		why := "not a JSON object"
		if !json.Valid(trimmed) {
			why = "not JSON"
		}
		return nil, &ReplyError{Text: quote(data), Why: why}
	}
	var r Response
	if err := json.Unmarshal(trimmed, &r); err != nil {
		return nil, &ReplyError{Text: quote(data), Why: err.Error()}
	}
	return &r, nil
}

// maxQuote bounds how much of a reply an error quotes.
const maxQuote = 300

// quote writes what a module sent for a person to read: quoted, and cut short when long.
func quote(data []byte) string {
	if len(data) <= maxQuote {
		return strconv.Quote(string(data))
	}
	cut := maxQuote
	for cut > 0 && !utf8.RuneStart(data[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(string(data[:cut])), len(data))
}

// encode writes a request as JSON in ASCII: anything else is escaped, so that a frame's length
// in characters is its length in bytes, whatever the reader counts.
func encode(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return asciiJSON(data), nil
}

// asciiJSON escapes the non-ASCII characters of JSON text; they only occur inside strings.
func asciiJSON(data []byte) []byte {
	i := 0
	for i < len(data) && data[i] < utf8.RuneSelf {
		i++
	}
	if i == len(data) {
		return data
	}
	out := append([]byte(nil), data[:i]...)
	for _, r := range string(data[i:]) {
		switch {
		case r < utf8.RuneSelf:
			out = append(out, byte(r))
		case r > 0xFFFF:
			r -= 0x10000
			out = fmt.Appendf(out, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
	}
	return out
}
