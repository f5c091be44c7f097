package pool

import (
	"fmt"
	"os"
	"strings"
)

// TokenEnv is the environment variable that holds a person's token when no -token-file is
// given.
const TokenEnv = "ARBITER_TOKEN"

// Token is the person's token the flags give: the content of -token-file, or else of
// $ARBITER_TOKEN, or "" for none (the submitter's credential alone).
func (f *SubmitFlags) Token() (string, error) { return ReadToken(f.TokenFile) }

// ReadToken reads a person's token from a file (its first line), or when path is "", from
// $ARBITER_TOKEN.
func ReadToken(path string) (string, error) {
	if path == "" {
		return strings.TrimSpace(os.Getenv(TokenEnv)), nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("pool: the token: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	token := strings.TrimSpace(line)
	if token == "" {
		return "", fmt.Errorf("pool: the token file %s is empty", path)
	}
	return token, nil
}
