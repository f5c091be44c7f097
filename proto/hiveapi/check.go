package hiveapi

import (
	"fmt"

	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
)

var _ compliance.PlayChecked = Protocol{}

// PlayRows implements compliance.PlayChecked: a module is judged by play alone (the API echoes
// no state), and these are the rows of its check (package arbiter/check plays them): the transport
// setting, the Greetings exchange (name, version and author, and active not false), a first
// Choose Turn answered before its response_deadline, games against the referee from random
// openings of Base and Base+MLP, each colour in turn, in which every turn must be one it was
// offered (one that is not, or an unreadable reply, fails its game, quoted), and a clean exit
// when its transport closes.
func (Protocol) PlayRows(e driver.EngineConfig) compliance.PlayerRows {
	rows := compliance.PlayerRows{
		Settings: "settings: the transport",
		Greeting: "Greetings: name, version, author, active",
		Close:    "leaves when its transport closes",
	}
	if transport, err := transportOf(e); err == nil {
		rows.SettingsDetail = fmt.Sprintf("transport=%s: %s", transport, transportMeaning[transport])
	}
	return rows
}

// transportMeaning says how each transport carries the messages.
var transportMeaning = map[string]string{
	TransportStdio: "one JSON object per line on its standard input and output",
	TransportIPC:   "one JSON object per line on Node's IPC channel (NODE_CHANNEL_FD)",
	TransportTCP:   `"<length>#<json>" frames over TCP, the module being the server`,
}
