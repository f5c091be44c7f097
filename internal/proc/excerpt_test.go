package proc

import (
	"strings"
	"testing"
)

// A crash's excerpt keeps the traceback's last frame, file and line, whole, and the error; a
// plain stderr gives its last three lines.
func TestStderrExcerpt(t *testing.T) {
	python := []string{
		"loading weights",
		"Traceback (most recent call last):",
		`  File "/home/me/engine.py", line 88, in <module>`,
		"    main()",
		`  File "/home/me/engine.py", line 80, in main`,
		"    reply = handle(line)",
		`  File "/home/me/engine.py", line 41, in handle`,
		"    return best_move(board)",
		`  File "/home/me/engine.py", line 27, in best_move`,
		"    return moves[0]",
		"IndexError: list index out of range",
	}
	got := StderrExcerpt(python)
	for _, want := range []string{"Traceback (most recent call last):", `File "/home/me/engine.py", line 27, in best_move | return moves[0] | IndexError: list index out of range`} {
		if !strings.Contains(strings.Join(strings.Fields(got), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("excerpt %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "loading weights") {
		t.Errorf("excerpt %q keeps what came before the traceback", got)
	}
	rust := []string{"", "thread 'main' panicked at src/player.rs:168:50:", "called `Option::unwrap()` on a `None` value",
		"note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", "", "x"}
	if got := StderrExcerpt(rust); !strings.HasPrefix(got, "thread 'main' panicked at src/player.rs:168:50:") {
		t.Errorf("excerpt %q does not begin with the panic's place", got)
	}
	if got := StderrExcerpt([]string{"a", "b", "", "c", "d"}); got != "b | c | d" {
		t.Errorf("plain excerpt %q", got)
	}
	if got := StderrExcerpt([]string{"", " "}); got != "" {
		t.Errorf("blank excerpt %q", got)
	}
}
