package uhpclient

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestReadReply(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		err      error
	}{
		{"plain", "a\nb\nok\n", []string{"a", "b"}, nil},
		{"bom and crlf", "\ufeffid X\r\nok\r\n", []string{"id X"}, nil},
		{"empty reply", "ok\n", nil, nil},
		{"ok with spaces", "x\n ok \n", []string{"x"}, nil},
		{"no ok", "a\nb\n", []string{"a", "b"}, io.EOF},
		{"too long", strings.Repeat("y", 100) + "\nok\n", nil, errLineTooLong},
	}
	for _, tc := range tests {
		got, err := NewReader(strings.NewReader(tc.in), 64).ReadReply()
		if !errors.Is(err, tc.err) || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: got %q, %v; want %q, %v", tc.name, got, err, tc.want, tc.err)
		}
	}
}

func TestReplyError(t *testing.T) {
	var ee *EngineError
	if err := replyError("e", "foo", []string{"err A", "err B"}); !errors.As(err, &ee) || ee.Message != "A; B" {
		t.Errorf("got %v", err)
	}
	var ime *InvalidMoveError
	if err := replyError("e", "play wQ", []string{"invalidmove No."}); !errors.As(err, &ime) || ime.Move != "wQ" || ime.Message != "No." {
		t.Errorf("got %v", err)
	}
	if err := replyError("e", "validmoves", []string{"wS1;errant"}); err != nil {
		t.Errorf("a move list was taken for an error: %v", err)
	}
}

func TestParseOption(t *testing.T) {
	o, err := ParseOption("MaxHelperThreads;enum;Auto;Auto;Auto;None;1")
	if err != nil || o.Name != "MaxHelperThreads" || o.Type != "enum" || len(o.Extra) != 3 || o.String() != "MaxHelperThreads;enum;Auto;Auto;Auto;None;1" {
		t.Errorf("got %+v, %v", o, err)
	}
	for _, bad := range []string{"", "A;int", ";int;1;1", "A;;1;1"} {
		if _, err := ParseOption(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestFormatTime(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		frac bool
		want string
	}{
		{time.Second, false, "00:00:01"},
		{1500 * time.Millisecond, true, "00:00:01.500"},
		{3*time.Hour + 2*time.Minute + 5*time.Second, false, "03:02:05"},
		{-time.Second, false, "00:00:00"},
	} {
		if got := FormatTime(tc.d, tc.frac); got != tc.want {
			t.Errorf("FormatTime(%v, %v) = %q, want %q", tc.d, tc.frac, got, tc.want)
		}
	}
}

func TestInfoSupports(t *testing.T) {
	i, ok := parseInfo([]string{"id X 1.0", "mosquito;Pillbug"})
	if !ok || !i.Supports("Base+MP") || i.Supports("Base+L") || !i.Supports("Base") {
		t.Errorf("%+v", i)
	}
	if i, ok := parseInfo([]string{"id Bare"}); !ok || len(i.Capabilities) != 0 || !i.Supports("Base") || i.Supports("Base+M") {
		t.Errorf("banner without capabilities: %+v", i)
	}
}

func FuzzReadReply(f *testing.F) {
	for _, s := range []string{"ok\n", "\ufeffid X\r\nM;L;P\r\nok\r\n", "err x\nerr y\nok\n", "a\x00b\nok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lines, err := NewReader(strings.NewReader(s), 256).ReadReply()
		for _, l := range lines {
			if len(l) > 256 || strings.ContainsAny(l, "\n") {
				t.Fatalf("line %q escaped the reader's limits", l)
			}
		}
		if err == nil && !strings.Contains(s, "ok") {
			t.Fatalf("a reply without ok ended cleanly: %q", s)
		}
		replyError("e", "cmd", lines)
		parseInfo(append(lines, "x"))
	})
}

func FuzzParseOption(f *testing.F) {
	f.Add("A;int;1;2;0;9")
	f.Add("B;bool;True;False")
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOption(s)
		if err != nil {
			return
		}
		again, err := ParseOption(o.String())
		if err != nil || again.String() != o.String() {
			t.Fatalf("%q -> %q does not round-trip", s, o.String())
		}
	})
}
