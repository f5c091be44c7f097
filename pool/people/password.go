package people

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Hashing is the cost of argon2id's password hashes: memory in KiB, passes and lanes.
type Hashing struct {
	Memory  uint32
	Time    uint32
	Threads uint8
}

// DefaultHashing is RFC 9106's second recommended option scaled to a small server (and
// OWASP's minimum for argon2id): 19 MiB, two passes, one lane, about 40 ms a hash on one core
// (BenchmarkPasswordHash).
var DefaultHashing = Hashing{Memory: 19 * 1024, Time: 2, Threads: 1}

// The lengths of a password: at least MinPassword bytes, and at most MaxPassword so that a
// hash costs a bounded time.
const (
	MinPassword = 10
	MaxPassword = 256
)

// ErrWeakPassword is a password too short or too long.
var ErrWeakPassword = fmt.Errorf("people: a password is %d to %d characters", MinPassword, MaxPassword)

// hashPassword returns the PHC string of password's argon2id hash with a fresh salt.
func hashPassword(password string, h Hashing) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	sum := argon2.IDKey([]byte(password), salt, h.Time, h.Memory, h.Threads, 32)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, h.Memory, h.Time, h.Threads,
		enc.EncodeToString(salt), enc.EncodeToString(sum)), nil
}

// errHashFormat is a stored hash that is not argon2id's PHC string.
var errHashFormat = errors.New("people: a stored password hash is not an argon2id PHC string")

// checkPassword reports whether password hashes to the PHC string stored, with the cost
// stored beside it (so that a change of DefaultHashing keeps old passwords valid).
func checkPassword(password, stored string) (bool, error) {
	parts := strings.Split(stored, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errHashFormat
	}
	var version int
	var h Hashing
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errHashFormat
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &h.Memory, &h.Time, &h.Threads); err != nil || h.Time == 0 || h.Threads == 0 {
		return false, errHashFormat
	}
	enc := base64.RawStdEncoding
	salt, err := enc.DecodeString(parts[4])
	if err != nil {
		return false, errHashFormat
	}
	want, err := enc.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, errHashFormat
	}
	got := argon2.IDKey([]byte(password), salt, h.Time, h.Memory, h.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
