//go:build unix

package nodeipc

import (
	"bufio"
	"fmt"
	"net"
	"syscall"
	"testing"
)

// TestPair: what one end writes the other reads, both ways, and the child's end is not
// inherited by a program started meanwhile (it is close-on-exec until given as ExtraFiles).
func TestPair(t *testing.T) {
	conn, child, err := Pair()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	defer child.Close()
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, child.Fd(), syscall.F_GETFD, 0)
	if errno != 0 || flags&syscall.FD_CLOEXEC == 0 {
		t.Errorf("the child's end is not close-on-exec: flags %#x, %v", flags, errno)
	}
	theirs, err := net.FileConn(child)
	if err != nil {
		t.Fatal(err)
	}
	defer theirs.Close()
	fmt.Fprintln(conn, `{"request_type":"Greetings"}`)
	if line, err := bufio.NewReader(theirs).ReadString('\n'); err != nil || line != "{\"request_type\":\"Greetings\"}\n" {
		t.Fatalf("the child's end read %q, %v", line, err)
	}
	fmt.Fprintln(theirs, `{"cmd":"NODE_HANDLE_ACK"}`)
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil || !Internal(line) {
		t.Fatalf("our end read %q, %v; want Node's own message", line, err)
	}
	if Internal([]byte(`{"response_type":"Greetings"}`)) {
		t.Error("a module's message taken for Node's")
	}
}
