package report

import (
	"flag"
	"io"
	"testing"
)

// TestRunOptionsFlags: the page flags set the options they name.
func TestRunOptionsFlags(t *testing.T) {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o RunOptions
	o.Register(fs)
	if err := fs.Parse([]string{"-report", "r.html", "-http", "0.0.0.0:8080", "-http-public"}); err != nil {
		t.Fatal(err)
	}
	if want := (RunOptions{File: "r.html", HTTP: "0.0.0.0:8080", Public: true}); o != want {
		t.Errorf("%+v, want %+v", o, want)
	}
}
