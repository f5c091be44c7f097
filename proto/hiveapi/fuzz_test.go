package hiveapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzReadFrame(f *testing.F) {
	for _, s := range []string{"2#{}", "13#{\"a\":\"\u00e9\u00e9\"}", "0#", "#{}", "12", "3#{}", " 5#{\"\":1}7#{\"b\":2}", "4#\"😀\"", "99999999999#"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		for range 100 {
			msg, err := ReadFrame(r)
			if err != nil {
				var fe *FrameError
				if !errors.Is(err, io.EOF) && !errors.As(err, &fe) {
					t.Fatalf("%q: error %v of an unexpected kind", data, err)
				}
				return
			}
			if utf8.Valid(msg) && utf16Len(string(msg)) > len(data) {
				t.Fatalf("%q: a message of %d characters from %d bytes", data, utf16Len(string(msg)), len(data))
			}
		}
	})
}

// FuzzFrameRoundTrip checks that whatever the arbiter sends, framed, reads back as sent.
func FuzzFrameRoundTrip(f *testing.F) {
	f.Add("Choose Turn", "é😀\x00<>")
	f.Fuzz(func(t *testing.T, a, b string) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			return
		}
		var frames []byte
		for _, v := range []map[string]string{{"request_type": a}, {"request_id": b, "x": a + b}} {
			msg, err := encode(v)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range msg {
				if c >= utf8.RuneSelf {
					t.Fatalf("encoded %v as %q, not ASCII", v, msg)
				}
			}
			frames = AppendFrame(frames, msg)
		}
		r := bufio.NewReader(bytes.NewReader(frames))
		for _, want := range []map[string]string{{"request_type": a}, {"request_id": b, "x": a + b}} {
			msg, err := ReadFrame(r)
			if err != nil {
				t.Fatalf("%q: %v", frames, err)
			}
			var got map[string]string
			if err := json.Unmarshal(msg, &got); err != nil || len(got) != len(want) {
				t.Fatalf("%q: read %q (%v)", frames, msg, err)
			}
			for k, v := range want {
				if got[k] != v {
					t.Fatalf("%q: %s is %q, want %q", frames, k, got[k], v)
				}
			}
		}
	})
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

func FuzzReadLine(f *testing.F) {
	for _, s := range []string{"{}\n", "{}\r\n\n{\"a\":1}", "", "\n\n", "no end"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		total := 0
		for range 1000 {
			line, err := ReadLine(r)
			if err != nil {
				return
			}
			if len(bytes.TrimSpace(line)) == 0 || bytes.ContainsAny(line, "\n") || bytes.HasSuffix(line, []byte("\r")) {
				t.Fatalf("%q: line %q", data, line)
			}
			if total += len(line); total > len(data) {
				t.Fatalf("%q: read more than was there", data)
			}
		}
	})
}

func FuzzParseResponse(f *testing.F) {
	for _, s := range []string{
		`{"response_type":"Choose Turn","response_id":"r2","turn_type":"Movement","source":"0,0","destination":"2,0"}`,
		`{"response_type":"Greetings","request_id":"r1","name":"rando","active":true}`,
		`{"success":false,"error":{"stack":"x"}}`, `[1]`, `"s"`, `{"response_id":5}`, `hello`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseResponse(data)
		if err != nil {
			var re *ReplyError
			if !errors.As(err, &re) {
				t.Fatalf("%q: error %v of an unexpected kind", data, err)
			}
			return
		}
		if !json.Valid(bytes.TrimSpace(data)) {
			t.Fatalf("%q: not JSON, but read as %+v", data, r)
		}
		// Whatever the module chose, asking the referee about it must not panic.
		if _, err := NewGame(0).Move(r.Turn); err == nil && r.TurnType != Placement {
			t.Fatalf("%q: turn %+v accepted on the empty board", data, r.Turn)
		}
	})
}

func FuzzParsePoint(f *testing.F) {
	for _, s := range []string{"0,0", "-2,0", " 1 , -1 ", "1,0", "a,b", ",", "99999999999999999999,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePoint(s)
		if err != nil {
			return
		}
		if (p.Row+p.Col)%2 != 0 {
			t.Fatalf("%q: %v is off the grid", s, p)
		}
		if back, err := ParsePoint(p.String()); err != nil || back != p || strings.ContainsAny(p.String(), " ") {
			t.Fatalf("%q: %v writes as %q, which reads as %v (%v)", s, p, p.String(), back, err)
		}
	})
}
