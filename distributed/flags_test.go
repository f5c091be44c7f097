package distributed

import (
	"flag"
	"io"
	"testing"
	"time"
)

// TestHostConfigFlags: the coordinator's flags set the fields they name; with neither
// -listen nor -nats the run is not served.
func TestHostConfigFlags(t *testing.T) {
	tests := []struct {
		args []string
		want HostConfig
		serv bool
	}{
		{nil, HostConfig{AckWait: DefaultAckWait}, false},
		{[]string{"-listen", "127.0.0.1:4222", "-ackwait", "5s"}, HostConfig{Listen: "127.0.0.1:4222", AckWait: 5 * time.Second}, true},
		{[]string{"-nats", "nats://h:4222", "-creds", "c.creds"}, HostConfig{URL: "nats://h:4222", CredsFile: "c.creds", AckWait: DefaultAckWait}, true},
	}
	for _, tc := range tests {
		fs := flag.NewFlagSet("match", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var hc HostConfig
		hc.Register(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if hc != tc.want || hc.Serving() != tc.serv {
			t.Errorf("%q: %+v serving %v, want %+v serving %v", tc.args, hc, hc.Serving(), tc.want, tc.serv)
		}
	}
}
